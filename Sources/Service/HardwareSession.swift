import Fusion
import SensorCalibration
import Hardware
import Sensors
import Formats

/// A failure of the session's set-up, with the message that says what to do (the command prints it).
public struct SessionError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The real machine's side of a session: the config file, the bus, the LED lines and the calibration file,
/// each failure turned into a message that says what to do.
public enum HardwareSession {
    public static let defaultConfigPath = "/etc/headtrack/config.json"

    /// Loads --config FILE, or the installed default config when it exists, else built-in defaults.
    public static func loadConfig(_ path: String?) throws(SessionError) -> Config {
        if let p = path {
            do { return try Config.load(path: p) } catch { throw SessionError(error.description) }
        }
        if FileIO.exists(defaultConfigPath) {
            do { return try Config.load(path: defaultConfigPath) } catch { throw SessionError(error.description) }
        }
        return Config()
    }

    public static func openBus(_ path: String) throws(SessionError) -> LinuxI2CBus {
        do { return try LinuxI2CBus(path: path) } catch {
            throw SessionError(shown(path, in: error.description) + busesHint(error))
        }
    }

    /// A message with `value` (a config string it quotes) escaped and cut: a device name of terminal escapes
    /// or of 10 MB is shown, not played or printed whole.
    static func shown(_ value: String, in message: String) -> String {
        let safe = Shown.cut(value)
        return safe == value || value.isEmpty ? message : message.replacing(value, with: safe)
    }

    /// "; buses here: /dev/i2c-1, /dev/i2c-20" when the named bus is missing or not a bus.
    static func busesHint(_ error: I2CError) -> String {
        switch error {
        case .cannotOpen(_, 2), .cannotOpen(_, 21), .notAnI2CBus:
            let buses = LinuxI2CBus.existingBuses()
            return buses.isEmpty ? "; this machine has no /dev/i2c-* bus at all" : "; buses here: " + buses.joined(separator: ", ")
        default:
            return ""
        }
    }

    /// The LED lines the config names.
    public static func openLines(_ config: Config) throws(SessionError) -> LinuxGPIOLines {
        do { return try LinuxGPIOLines(chip: config.gpioChip, offsets: config.ledLines, activeLow: config.activeLow) } catch {
            throw SessionError(shown(config.gpioChip, in: error.description))
        }
    }

    /// The calibration to run with: the file when it is good; otherwise the previous file or none, with a
    /// one-line warning (to `warn`) that says what to do. A bad file never stops the tracker.
    public static func loadCalibration(_ path: String, warn: (String) -> Void) -> Calibration {
        guard FileIO.exists(path) || FileIO.exists(path + ".previous") else {
            warn("headtrack: no calibration at \(path): running uncalibrated (run 'headtrack calibrate' once)")
            return .none
        }
        let (calibration, problem) = CalibrationStore(path: path).loadKeepingCurrent(nil)
        if let p = problem { warn("headtrack: \(p)") }
        return calibration
    }

    /// What `run` starts from: with the background calibration on (`calibration.auto`), the learned file
    /// beside the guided one when it is newer (`CalibrationStore.newer`), else the guided file as
    /// `loadCalibration` reads it. A learned file that cannot be read is a warning, and the guided one is used.
    public static func startingCalibration(_ config: Config, warn: (String) -> Void, info: (String) -> Void) -> Calibration {
        let path = config.calibrationFile
        guard config.autoCalibration else { return loadCalibration(path, warn: warn) }
        let learnedPath = CalibrationStore.learnedPath(beside: path)
        let hasGuided = FileIO.exists(path) || FileIO.exists(path + ".previous")
        let guided: Calibration? = hasGuided ? loadCalibration(path, warn: warn) : nil
        var learned: Calibration? = nil
        if FileIO.exists(learnedPath) || FileIO.exists(learnedPath + ".previous") {
            let (c, problem) = CalibrationStore(path: learnedPath).loadKeepingCurrent(nil)
            if let p = problem { warn("headtrack: \(p)") }
            if c != .none { learned = c }
        }
        guard let start = CalibrationStore.newer(guided: guided, learned: learned) else {
            info("headtrack: no calibration at \(path): learning hard and soft iron while worn (turn your head about; "
                + "'headtrack calibrate' does it at once)")
            return .none
        }
        if let l = learned, start == l {
            let fit = l.magnetometerFit.map { " (fit error \(fixed($0.relativeResidual * 100, 1)) %, \(fixed($0.coverage * 100, 0)) % of directions)" } ?? ""
            info("headtrack: starting from the calibration learned while worn, \(learnedPath)\(fit)")
        }
        return start
    }
}

/// Output lines that go nowhere (recording and calibrating drive no LEDs).
public struct NoLines: OutputLines {
    public init() {}
    public var count: Int { 0 }
    public func set(_ values: UInt64) throws(GPIOError) {}
}
