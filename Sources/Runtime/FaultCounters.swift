import Hardware
import Sensors

/// Counts of everything that went wrong, by kind, for the summary line and telemetry.
public struct FaultCounters: Sendable, Equatable {
    public var noAcknowledge = 0
    public var ioError = 0
    public var timeout = 0
    public var shortRead = 0
    public var implausibleData = 0
    public var magneticOverflow = 0
    public var chipResets = 0
    public var reinitFailures = 0
    public var overruns = 0

    public init() {}

    public var total: Int {
        noAcknowledge + ioError + timeout + shortRead + implausibleData + magneticOverflow + chipResets + reinitFailures
    }

    public mutating func count(_ error: SensorError) {
        switch error {
        case let .bus(e):
            switch e {
            case .noAcknowledge: noAcknowledge += 1
            case .timeout: timeout += 1
            case .shortRead: shortRead += 1
            default: ioError += 1
            }
        case .magneticOverflow: magneticOverflow += 1
        case .implausibleData: implausibleData += 1
        default: reinitFailures += 1
        }
    }

    public var summary: String {
        "faults: nack=\(noAcknowledge) io=\(ioError) timeout=\(timeout) short=\(shortRead) implausible=\(implausibleData) "
            + "mag-overflow=\(magneticOverflow) chip-resets=\(chipResets) reinit-failures=\(reinitFailures) overruns=\(overruns)"
    }
}
