import Geometry

/// Which mount `run` uses and where it came from: the config's `mount`, else the one `headtrack calibrate
/// --mount` learned (`mount.json` beside the calibration file), else none (the sensor's axes are taken as the
/// head's), as `SessionPlan` decides it (the one place). `probe`, `watch` (through the stream's hello), the
/// journal and `systemctl status` say it.
public struct MountInUse: Sendable, Equatable {
    public enum Source: String, Sendable, Equatable {
        case config, learned, none
        /// Given on the command line (`replay --mount`).
        case option
    }

    public var mount: Mount?
    public var source: Source
    /// The learned file, when that is where the mount came from.
    public var file: String?

    public init(mount: Mount?, source: Source, file: String? = nil) {
        self.mount = mount; self.source = source; self.file = file
    }

    /// The mount as `--mount` writes it, or "none".
    public var text: String { mount?.argument ?? "none" }

    /// "-x,z,y (config)", "-x,z,y (learned, /var/lib/headtrack/mount.json)" or "none (…)".
    public var summary: String {
        switch source {
        case .config: return "\(text) (config)"
        case .learned: return "\(text) (learned, \(file ?? "mount file"))"
        case .option: return "\(text) (--mount)"
        case .none: return "none (the sensor's axes are taken as the head's: run 'headtrack calibrate --mount')"
        }
    }
}
