import Hardware
import Sensors

/// Counts of everything that went wrong, by kind, for the summary line and telemetry.
public struct FaultCounters: Sendable, Equatable {
    public var noAcknowledge = 0
    public var ioError = 0
    public var timeout = 0
    public var shortRead = 0
    public var implausibleData = 0
    /// Samples dropped because their data registers stopped changing (or the magnetometer announced nothing new).
    public var frozenData = 0
    /// Samples dropped because they jumped further than a head can move in one period (bytes corrupted on the bus).
    public var corruptedSamples = 0
    public var magneticOverflow = 0
    public var chipResets = 0
    public var reinitFailures = 0
    /// Loop periods skipped because a stage ran late (not a sensor fault: not in `total`).
    public var overruns = 0
    /// Magnetometer data overruns (ST1.DOR / STATUS.DOR): a measurement was skipped because it was read late.
    /// The sample read is valid, so like `overruns` this is a timing count, not in `total`.
    public var magnetometerOverruns = 0

    public init() {}

    public var total: Int {
        noAcknowledge + ioError + timeout + shortRead + implausibleData + frozenData + corruptedSamples + magneticOverflow
            + chipResets + reinitFailures
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
        case .frozenData: frozenData += 1
        case .corruptedSample: corruptedSamples += 1
        default: reinitFailures += 1
        }
    }

    public var summary: String {
        "faults: nack=\(noAcknowledge) io=\(ioError) timeout=\(timeout) short=\(shortRead) implausible=\(implausibleData) "
            + "frozen=\(frozenData) corrupted=\(corruptedSamples) mag-overflow=\(magneticOverflow) chip-resets=\(chipResets) "
            + "reinit-failures=\(reinitFailures) overruns=\(overruns) mag-overruns=\(magnetometerOverruns)"
    }
}
