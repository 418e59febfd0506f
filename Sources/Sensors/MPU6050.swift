import Hardware

/// MPU-6050 (and the MPU-9150's accel/gyro die) facts that differ from the common InvenSense register map
/// in MPU9250Registers.swift (RM-MPU-6000A-00 rev 4.2; hardware-facts §1.0–1.3).
public enum MPU6050Value {
    /// WHO_AM_I (0x75): bits [6:1] hold the address, AD0 is not reflected, so 0x68 at both 0x68 and 0x69.
    public static let whoAmI: UInt8 = 0x68
    /// PWR_MGMT_1 after power-on: SLEEP set. A chip that lost power comes back asleep, its data frozen.
    public static let powerManagement1Reset: UInt8 = 0x40
    /// T(°C) = TEMP_OUT / 340 + 36.53 [RM6050 §4.18].
    public static let temperatureSensitivity = 340.0
    public static let temperatureOffset = 36.53
    /// The accelerometer samples at 1 kHz at most; the gyro at 8 kHz (DLPF off) or 1 kHz.
    public static let accelOutputRateHz = 1000.0
}

/// Driver for the MPU-6050 (6-axis, no magnetometer; no ACCEL_CONFIG2, one DLPF setting for both sensors)
/// by direct register polling. A magnetometer wired to its auxiliary bus (GY-87: HMC5883L) appears on the
/// host bus through the bypass the driver enables.
public struct MPU6050<Bus: I2CBus>: InvenSenseCoreDriver {
    /// The shared register protocol, with this part's facts (its bus, address, identity and read-out come
    /// through `InvenSenseCoreDriver`).
    public var core: InvenSenseCore<Bus>

    public static var part: InvenSensePartInfo {
        InvenSensePartInfo(identities: [MPU6050Value.whoAmI: "MPU-6050"])
    }

    public init(bus: Bus, address: UInt8 = 0x68, configuration: InvenSenseConfiguration = InvenSenseConfiguration()) {
        core = InvenSenseCore(bus: bus, address: address, configuration: configuration, part: InvenSensePart(
            kind: .mpu6050, identities: MPU6050<Bus>.part.identities, hasAccelConfig2: false,
            temperatureSensitivity: MPU6050Value.temperatureSensitivity,
            temperatureOffset: MPU6050Value.temperatureOffset, fifoCapacity: 1024))
    }
}

/// Identity values a driver accepts, for detection and messages.
public struct InvenSensePartInfo: Sendable {
    public var identities: [UInt8: String]

    /// What a wrong-identity error says was expected, from `identities`: "0x71 (MPU-9250) or 0x73 (MPU-9255)".
    public var expected: String {
        identities.sorted { $0.key < $1.key }.map { "\(hex($0.key)) (\($0.value))" }.joined(separator: " or ")
    }
}

// MARK: Detection

extension MPU6050 {
    /// The name detection prints for a WHO_AM_I (0x75) value that means this chip, nil for any other. The
    /// MPU-9150's accel/gyro die answers the same 0x68.
    public static func probe(whoAmI: UInt8) -> String? { whoAmI == MPU6050Value.whoAmI ? "MPU-6050 (or MPU-9150)" : nil }
}
