import Gestures
import Formats
import EventStream

/// The one-line state systemd shows in `systemctl status` (sd_notify STATUS=): tracking, sensor fault or
/// recovering, with the last gesture. `handle` returns a new text only when the state changed, so the
/// daemon sends a datagram per change, not per sample.
public struct ServiceStatus: Sendable {
    public enum Phase: Sendable, Equatable {
        case tracking
        case fault(FaultKind)
        case recovering
    }

    /// After a fault ends, "recovering" for this long: the filter re-converges from a chip reset in about a
    /// second, and a status that flickers back to "tracking" between glitches would hide an unstable cable.
    public var recoveryHold = 2.0
    public let device: String
    /// "mount -x,z,y (config)": which mount is in use, and from where.
    public let mount: String?
    public private(set) var phase = Phase.tracking
    private var episode = FaultEpisode()
    private var recoveredAt = -Double.infinity
    private var lastGesture: (event: GestureEvent, t: Double)? = nil
    /// The background calibration's part ("compass calibrated (...)"), nil when there is none to tell.
    public private(set) var compass: String? = nil

    public init(device: String, mount: MountInUse? = nil) {
        self.device = device
        self.mount = mount.map { m in "mount " + (m.source == .none ? "none" : "\(m.text) (\(m.source.rawValue))") }
    }

    public var text: String {
        var s: String
        switch phase {
        case .tracking: s = "tracking with \(device)"
        case let .fault(kind): s = "sensor fault (\(kind.name)) on \(device)"
        case .recovering: s = "recovering from a sensor fault on \(device)"
        }
        if let m = mount { s += "; " + m }
        if let c = compass { s += "; " + c }
        if let g = lastGesture { s += "; last gesture: \(g.event.rawValue) at \(fixed(g.t, 1)) s" }
        return s
    }

    /// The compass part changed (called when the background calibration's correction or state changes,
    /// not per sample); returns the new status text when it did.
    public mutating func compass(_ text: String?) -> String? {
        guard text != compass else { return nil }
        compass = text
        return self.text
    }

    /// Feeds one loop event; returns the new status text when it changed.
    public mutating func handle(_ event: LoopEvent) -> String? {
        let before = phase
        switch event {
        case let .fault(t, error):
            if episode.fault(t: t) { phase = .fault(FaultKind(error)) }
        case let .reinitialized(t):
            if episode.fault(t: t) { phase = .fault(.chipReset) }
        case let .gesture(g):
            lastGesture = (g.event, g.t)
            return text
        case let .display(t, _):
            if episode.tick(t: t) {
                phase = .recovering
                recoveredAt = t
            } else if phase == .recovering && t - recoveredAt >= recoveryHold {
                phase = .tracking
            }
        case .imu: break
        }
        return phase == before ? nil : text
    }
}
