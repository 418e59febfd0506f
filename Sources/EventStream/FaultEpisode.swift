import Hardware
import Sensors

/// Groups failing samples into episodes: one begins with the first fault and ends when none has come for
/// `hold` seconds. The same 0.5 s the loop keeps the status LED in its fault pattern, so the stream, the
/// LEDs and systemd's STATUS agree on when a fault is over.
public struct FaultEpisode: Sendable {
    public var hold = 0.5
    public private(set) var active = false
    public private(set) var lastFault = -Double.infinity

    public init() {}

    /// A fault at `t`; true when it begins an episode.
    public mutating func fault(t: Double) -> Bool {
        lastFault = t
        defer { active = true }
        return !active
    }

    /// Time passes; true when the episode ends at `t`.
    public mutating func tick(t: Double) -> Bool {
        guard active, t - lastFault >= hold else { return false }
        active = false
        return true
    }
}

/// What went wrong with the sensor, as the stream's `fault` line and the status line name it: one list of the
/// kinds a client may see (docs/protocol.md), each with its fixed name.
public enum FaultKind: Sendable, Equatable, CaseIterable {
    case busNoAcknowledge, busTimeout, busShortRead, busError
    case magneticOverflow, implausibleData, frozenData, corruptedSample, sensorMissing
    /// The chip was found reset (its configuration lost) and was set up again.
    case chipReset

    public init(_ error: SensorError) {
        switch error {
        case let .bus(e):
            switch e {
            case .noAcknowledge: self = .busNoAcknowledge
            case .timeout: self = .busTimeout
            case .shortRead: self = .busShortRead
            default: self = .busError
            }
        case .magneticOverflow: self = .magneticOverflow
        case .implausibleData: self = .implausibleData
        case .frozenData: self = .frozenData
        case .corruptedSample: self = .corruptedSample
        default: self = .sensorMissing
        }
    }

    /// The machine-readable name (a static string: writing it allocates nothing).
    public var name: StaticString {
        switch self {
        case .busNoAcknowledge: return "bus_no_ack"
        case .busTimeout: return "bus_timeout"
        case .busShortRead: return "bus_short_read"
        case .busError: return "bus_error"
        case .magneticOverflow: return "magnetic_overflow"
        case .implausibleData: return "implausible_data"
        case .frozenData: return "frozen_data"
        case .corruptedSample: return "corrupted_sample"
        case .sensorMissing: return "sensor_missing"
        case .chipReset: return "chip_reset"
        }
    }
}
