import Geometry

/// Which mount `run` uses and where it came from: the config's `mount`, else the one `headtrack calibrate
/// --mount` learned (`mount.json` beside the calibration file), else none (the sensor's axes are taken as the
/// head's). `probe`, `watch` (through the stream's hello), the journal and `systemctl status` say it.
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

    /// What a config alone says (no file read): its mount, or none.
    public init(config: Config) {
        self.init(mount: config.mount, source: config.mount == nil ? .none : .config)
    }

    /// The config's mount; when it names none, the learned file beside its calibration file if that exists
    /// and reads back whole. A file that cannot be read is a warning (to `warn`), never a stop: tracking goes
    /// on without a mount, as it did before the file was written.
    public static func resolve(_ config: Config, warn: (String) -> Void) -> MountInUse {
        if config.mount != nil { return MountInUse(config: config) }
        let store = MountStore(beside: config.calibrationFile)
        guard FileIO.exists(store.path) else { return MountInUse(mount: nil, source: .none) }
        do {
            return MountInUse(mount: try store.load().mount, source: .learned, file: store.path)
        } catch {
            warn("headtrack: \(error); running without a mount")
            return MountInUse(mount: nil, source: .none)
        }
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

extension Config {
    /// This config with the mount that is in use.
    public func using(_ inUse: MountInUse) -> Config {
        var c = self
        c.mount = inUse.mount
        return c
    }
}
