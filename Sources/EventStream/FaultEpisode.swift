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

    /// A short machine-readable name for the kind of fault.
    public static func kind(of error: SensorError) -> StaticString {
        switch error {
        case let .bus(e):
            switch e {
            case .noAcknowledge: return "bus_no_ack"
            case .timeout: return "bus_timeout"
            case .shortRead: return "bus_short_read"
            default: return "bus_error"
            }
        case .magneticOverflow: return "magnetic_overflow"
        case .implausibleData: return "implausible_data"
        case .frozenData: return "frozen_data"
        case .corruptedSample: return "corrupted_sample"
        default: return "sensor_missing"
        }
    }
}
