import Hardware

/// MPU-6500 facts that differ from the common register map in MPU9250Registers.swift (RM-MPU-6500A-00
/// rev 2.1; hardware-facts §1.0–1.3). The MPU-9250 is this chip plus an AK8963 die in one package, so
/// the same registers and values apply.
public enum MPU6500Value {
    public static let whoAmI: UInt8 = 0x70
    /// PWR_MGMT_1 after power-on: awake, CLKSEL 1.
    public static let powerManagement1Reset: UInt8 = 0x01
    /// T(°C) = (TEMP_OUT − 0) / 333.87 + 21 [RM9250 §4.23].
    public static let temperatureSensitivity = 333.87
    public static let temperatureOffset = 21.0
    /// Other parts with this register layout for the data block and configuration, from the kernel's
    /// inv_mpu6050 table (hardware-facts §1.1): detection uses the MPU-6500 driver for them, saying so.
    public static let compatibleIdentities: [UInt8: String] = [
        0x74: "MPU-6515", 0x78: "MPU-6880", 0x75: "MPU-9250 clone (WHO_AM_I 0x75)",
        0x98: "ICM-20689 (or an MPU-6050 clone)", 0xAF: "ICM-20608", 0xAE: "ICM-20608D", 0xA6: "ICM-20609",
        0x11: "ICM-20600", 0x12: "ICM-20602", 0x20: "ICM-20690", 0xA9: "IAM-20680",
    ]
}

/// Driver for the MPU-6500 (6-axis; separate accelerometer DLPF in ACCEL_CONFIG2) by direct register
/// polling. Also the driver for "MPU-9250" boards that answer 0x70 and have no magnetometer.
public struct MPU6500<Bus: I2CBus>: InvenSenseCoreDriver {
    /// The shared register protocol, with this part's facts (its bus, address, identity and read-out come
    /// through `InvenSenseCoreDriver`).
    public var core: InvenSenseCore<Bus>

    public static var part: InvenSensePartInfo {
        InvenSensePartInfo(identities: [MPU6500Value.whoAmI: "MPU-6500"])
    }

    public init(bus: Bus, address: UInt8 = 0x68, configuration: InvenSenseConfiguration = InvenSenseConfiguration()) {
        var identities = MPU6500<Bus>.part.identities
        if configuration.settings.acceptUnknownIdentity {
            identities.merge(MPU6500Value.compatibleIdentities) { a, _ in a }
        }
        core = InvenSenseCore(bus: bus, address: address, configuration: configuration, part: InvenSensePart(
            kind: .mpu6500, identities: identities, hasAccelConfig2: true,
            temperatureSensitivity: MPU6500Value.temperatureSensitivity,
            temperatureOffset: MPU6500Value.temperatureOffset, fifoCapacity: 512))
    }
}

// MARK: Detection

extension MPU6500 {
    /// The name detection prints for a WHO_AM_I (0x75) value that means this chip, nil for any other.
    public static func probe(whoAmI: UInt8) -> String? { whoAmI == MPU6500Value.whoAmI ? "MPU-6500" : nil }

    /// The name of a register-compatible part (`MPU6500Value.compatibleIdentities`) this driver reads too.
    public static func probeCompatible(whoAmI: UInt8) -> String? { MPU6500Value.compatibleIdentities[whoAmI] }
}
