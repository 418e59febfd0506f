import Tracking

/// Everything a session starts from, decided once: the config with the command line's overrides, the mount
/// in use and where it came from, the starting calibration and where it came from, where the background
/// calibration saves, the rates and the stream's socket. `run` (on the headset and `--simulated`), `replay
/// --config`, `probe`, `calibrate` and `demo` make one and hand it on, so no command or service resolves any
/// of these facts again, and what `probe` says is what `run` uses. (`replay --mount` is put over the plan by
/// `replay`, after the plan has said where its own mount came from.)
public struct SessionPlan: Sendable {
    /// What the command line says over the config file.
    public struct Overrides: Sendable {
        public var i2cDevice: String? = nil
        public var gpioChip: String? = nil
        /// Already checked against `ConfigLimits.imuHz` by the command, which says the option's name.
        public var imuHz: Double? = nil
        /// `--socket`: the stream's socket the user named (it must open).
        public var socket: String? = nil
        public init() {}
    }

    /// Which state files beside the config's `calibrationFile` the plan reads: `run` reads both, `replay
    /// --config` and `probe` only the mount; `calibrate` writes them and `demo`'s board has its own, so they
    /// read none, and a corrupt file is said only by a command that would use it.
    public struct StateFiles: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// `mount.json`, learned by `calibrate --mount`.
        public static let mount = StateFiles(rawValue: 1)
        /// The guided calibration file, and the learned one beside it when `calibration.auto` is on.
        public static let calibration = StateFiles(rawValue: 2)
    }

    /// The config with the overrides applied and `mount` set to the mount in use, as the pipeline takes it.
    public let config: Config
    public let mount: MountInUse
    /// nil when the calibration files were not read: the session keeps the config's (none).
    public let calibration: StartingCalibration?
    /// Where the background calibration saves what it learned (`CalibrationWriter`); nil: nowhere.
    public let learnedCalibration: String?
    /// The socket the user named (`--socket`); the config's `stream.socket` is `StreamSetup`'s to weigh.
    public let socket: String?

    /// The plan for `config` (the file as loaded). A mount file that cannot be read is said to `warn` at once,
    /// and the session runs without a mount; the calibration's lines wait in `calibration.notes` for the step
    /// that loads it.
    public init(config file: Config, overrides: Overrides = Overrides(), reading files: StateFiles, warn: (String) -> Void) {
        var config = file
        if let d = overrides.i2cDevice { config.i2cDevice = d }
        if let c = overrides.gpioChip { config.gpioChip = c }
        if let hz = overrides.imuHz { config.rates.imuHz = hz }
        mount = Self.resolveMount(config, readingFile: files.contains(.mount), warn: warn)
        config.mount = mount.mount
        self.config = config
        let readsCalibration = files.contains(.calibration)
        calibration = readsCalibration ? StartingCalibration(calibrationFile: config.calibrationFile, autoCalibration: config.autoCalibration) : nil
        learnedCalibration = readsCalibration && config.autoCalibration ? CalibrationStore.learnedPath(beside: config.calibrationFile) : nil
        socket = overrides.socket
    }

    /// The plan of a command that reads no state file (`calibrate` writes them, `demo`'s board has its own):
    /// the config with the overrides, and its own mount or none. Nothing is read, so nothing is said.
    public init(config file: Config, overrides: Overrides = Overrides()) {
        self.init(config: file, overrides: overrides, reading: [], warn: { _ in })
    }

    /// The config's mount; when it names none, the learned file beside its calibration file (when that is
    /// read) if it exists and reads back whole. A file that cannot be read is a warning, never a stop:
    /// tracking goes on without a mount, as it did before the file was written.
    private static func resolveMount(_ config: Config, readingFile: Bool, warn: (String) -> Void) -> MountInUse {
        if let m = config.mount { return MountInUse(mount: m, source: .config) }
        let store = MountStore(beside: config.calibrationFile)
        guard readingFile && FileIO.exists(store.path) else { return MountInUse(mount: nil, source: .none) }
        do {
            return MountInUse(mount: try store.load().mount, source: .learned, file: store.path)
        } catch {
            warn("headtrack: \(error); running without a mount")
            return MountInUse(mount: nil, source: .none)
        }
    }

    public var rates: LoopRates { config.rates }
    /// Where `calibrate --mount` writes the mount this plan reads (`mount.json` beside the calibration file).
    public var mountFile: String { MountStore(beside: config.calibrationFile).path }
}
