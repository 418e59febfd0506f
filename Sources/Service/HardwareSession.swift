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

/// The real machine's side of a session: the config file, the bus and the LED lines, each failure turned into
/// a message that says what to do.
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
}

extension SessionPlan {
    /// The calibration the plan starts from, its lines said now to the journal (warnings always, the rest
    /// unless `quiet`). The session calls this at its calibration step, so a set-up that fails before it (a
    /// bus that does not open) says none of them. nil when the plan read no calibration file: the session
    /// keeps the config's.
    public func startingCalibration(quiet: Bool) -> Calibration? {
        guard let start = calibration else { return nil }
        for note in start.notes {
            switch note {
            case let .warning(line): Log.warning(line)
            case let .info(line): if !quiet { Log.info(line) }
            }
        }
        return start.calibration
    }
}

/// Output lines that go nowhere (recording and calibrating drive no LEDs).
public struct NoLines: OutputLines {
    public init() {}
    public var count: Int { 0 }
    public func set(_ values: UInt64) throws(GPIOError) {}
}
