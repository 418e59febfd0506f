import CLinux
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
        do { return try LinuxI2CBus(path: path) } catch { throw CommandError(error.description) }
    }

    /// The IMU address: the configured one, or the first of 0x68/0x69 that answers.
    static func findIMU(_ bus: inout LinuxI2CBus, config: Config) throws -> UInt8 {
        if let a = config.imuAddress { return a }
        let found = IMUProbe.scanIMU(&bus)
        guard let first = found.first else {
            throw CommandError(SensorError.noIMU(bus: bus.name, addresses: [0x68, 0x69]).description)
        }
        return first.address
    }
}
