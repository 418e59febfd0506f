import CLinux
import Fusion
import Geometry
import Hardware
import Runtime
import Sensors

/// Opens the real bus and finds the IMU, turning every failure into a message that says what to do.
enum HardwareSession {
    static let defaultConfigPath = "/etc/headtrack/config.json"

    /// Loads --config FILE, or the installed default config when it exists, else built-in defaults.
    static func loadConfig(_ path: String?) throws -> Config {
        if let p = path {
            do { return try Config.load(path: p) } catch { throw CommandError(error.description) }
        }
        if FileIO.exists(defaultConfigPath) {
            do { return try Config.load(path: defaultConfigPath) } catch { throw CommandError(error.description) }
        }
        return Config()
    }

    static func openBus(_ path: String) throws -> LinuxI2CBus {
        do { return try LinuxI2CBus(path: path) } catch {
            throw CommandError(error.description + busesHint(error))
        }
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

    /// Detects the sensors the config asks for (auto by default) and returns their drivers, not yet
    /// initialised. `report` receives the findings and notes, for the log.
    static func detectBoard(_ bus: inout LinuxI2CBus, config: Config,
                            report: (String) -> Void = { _ in }) throws -> SensorBoard<LinuxI2CBus> {
        let detection = BoardDetector.detect(&bus, request: config.detectionRequest)
        for f in detection.findings { report("  " + f) }
        for n in detection.notes { report("  note: " + n) }
        do {
            return try detection.makeBoard(bus: bus, settings: config.imuSettings, magnetometerMount: config.magnetometerMount,
                           screen: config.screenSettings)
        } catch { throw CommandError(error.description) }
    }

    /// The calibration to run with: the file when it is good; otherwise the previous file or none, with a
    /// one-line warning that says what to do. A bad file never stops the tracker.
    static func loadCalibration(_ path: String) -> Calibration {
        guard FileIO.exists(path) || FileIO.exists(path + ".previous") else {
            Console.err("headtrack: no calibration at \(path): running uncalibrated (run 'headtrack calibrate' once)")
            return .none
        }
        let (calibration, problem) = CalibrationStore(path: path).loadKeepingCurrent(nil)
        if let p = problem { Console.err("headtrack: \(p)") }
        return calibration
    }
}
