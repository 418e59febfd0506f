import Hardware

/// Errors from sensor drivers. Each says what was found and what to do.
public enum SensorError: Error, Equatable, Sendable, CustomStringConvertible {
    case bus(I2CError)
    /// Nothing answered at any of the addresses tried.
    case noIMU(bus: String, addresses: [UInt8])
    /// Something answered, but its identity register holds a value we do not know.
    case unexpectedIdentity(bus: String, address: UInt8, register: UInt8, found: UInt8, expected: String)
    /// The magnetometer did not answer with its identity.
    case magnetometerMissing(bus: String, detail: String)
    /// A magnetometer overflow (field beyond range, e.g. a magnet next to the sensor).
    case magneticOverflow
    /// A reading that cannot be physical (e.g. all zero, NaN); the sample is dropped.
    case implausibleData(String)
    /// The data registers stopped changing: identical raw values for many samples in a row, which sensor
    /// noise makes impossible on a live chip (a stuck or sleeping chip, or a bus returning stale bytes).
    case frozenData(String)
    /// A sample jumped further from its neighbours than a head can move in one sample period: bytes
    /// corrupted on the bus (or a hard knock). The sample is dropped.
    case corruptedSample(String)

    public var description: String {
        switch self {
        case let .bus(e): return e.description
        case let .noIMU(bus, addresses):
            return "no IMU answered on \(bus) at \(addresses.map(hex).joined(separator: " or ")): is I²C enabled (dtparam=i2c_arm=on) and the sensor wired to pins 3 (SDA) and 5 (SCL) with 3.3 V and GND? "
                + (busNumber(bus).map { "`i2cdetect -y \($0)` lists what answers" } ?? "i2cdetect lists what answers")
        case let .unexpectedIdentity(bus, address, register, found, expected):
            return "the chip at \(hex(address)) on \(bus) answered \(hex(found)) in its identity register \(hex(register)), expected \(expected): wrong chip, a clone, or a bus fault"
        case let .magnetometerMissing(bus, detail):
            return "no magnetometer found on \(bus): \(detail); heading needs one (the board may be a 6-axis MPU-6500 sold as MPU-9250)"
        case .magneticOverflow:
            return "magnetometer overflow: a magnet or steel is too close to the sensor"
        case let .implausibleData(s):
            return "implausible sensor data: \(s)"
        case let .frozenData(s):
            return "frozen sensor data: \(s); the chip is checked and re-initialised if it was reset"
        case let .corruptedSample(s):
            return "corrupted sample dropped: \(s) (noise on the bus? keep I²C wires short, away from the LEDs)"
        }
    }
}

/// 1 for "/dev/i2c-1": the number i2cdetect takes. nil for a name that is not an i2c-dev path.
func busNumber(_ bus: String) -> Int? {
    guard bus.hasPrefix("/dev/") else { return nil }
    return LinuxI2CBus.busNumber(deviceName: bus.dropFirst(5))
}
