import Geometry
import Hardware

// MARK: Register map (TDK DS-000189 rev 1.3 §7–10; hardware-facts §1.6)

/// ICM-20948 registers. Four banks, selected by REG_BANK_SEL (0x7F in every bank, USER_BANK in bits 5:4).
public enum ICM20948Register {
    public static let bankSelect: UInt8 = 0x7F
    // Bank 0
    public static let whoAmI: UInt8 = 0x00
    public static let userControl: UInt8 = 0x03
    public static let powerManagement1: UInt8 = 0x06
    public static let powerManagement2: UInt8 = 0x07
    public static let intPinConfig: UInt8 = 0x0F
    /// ACCEL_XOUT_H: start of the 14-byte block AX AY AZ GX GY GZ T (big-endian int16). Temperature comes
    /// after the gyroscope here, unlike the MPU-6xxx.
    public static let accelXHigh: UInt8 = 0x2D
    public static let gyroXHigh: UInt8 = 0x33
    public static let tempHigh: UInt8 = 0x39
    // Bank 2
    public static let gyroSampleRateDivider: UInt8 = 0x00
    public static let gyroConfig1: UInt8 = 0x01
    public static let accelSampleRateDivider1: UInt8 = 0x10
    public static let accelSampleRateDivider2: UInt8 = 0x11
    public static let accelConfig: UInt8 = 0x14
}

public enum ICM20948Value {
    public static let whoAmI: UInt8 = 0xEA
    /// REG_BANK_SEL values for banks 0..3.
    public static let bank0: UInt8 = 0x00
    public static let bank2: UInt8 = 0x20
    /// PWR_MGMT_1: DEVICE_RESET; after power-on the register reads 0x41 (SLEEP, CLKSEL 1).
    public static let deviceReset: UInt8 = 0x80
    public static let powerManagement1Reset: UInt8 = 0x41
    /// PWR_MGMT_1 awake with CLKSEL 1 (auto: PLL when ready), as the datasheet asks for full gyro performance.
    public static let awakeAutoClock: UInt8 = 0x01
    public static let bypassEnable: UInt8 = 0x02
    /// Gyro and accel output rate with the DLPF on: 1125 Hz / (1 + divider) (Table 16).
    public static let internalRateHz = 1125.0
    /// T(°C) = raw / 333.87 + 21 (§3.4, §8.31).
    public static let temperatureSensitivity = 333.87
    public static let temperatureOffset = 21.0
}

// MARK: Driver

/// Driver for the ICM-20948 accel/gyro by direct register polling, with its AK09916 made reachable at 0x0C
/// through the bypass. Leaves bank 0 selected after every call, so per-sample reads need no bank switch.
public struct ICM20948<Bus: I2CBus> {
    /// The rate, ranges and identity check every IMU driver takes (`settings`), and the DLPF.
    public struct Configuration: Sendable, Equatable {
        public var settings = IMUSettings()
        /// GYRO_DLPFCFG / ACCEL_DLPFCFG 3: 51.2 Hz gyro, 50.4 Hz accel bandwidth — above head motion (under
        /// 20 Hz), below the Nyquist rate of 225 Hz sampling.
        public var dlpf: UInt8 = 3
        public init() {}
        init(settings: IMUSettings) { self.settings = settings }

        /// Divider for 1125 Hz / (1 + div) (200 Hz → 4 → 225 Hz).
        public var sampleRateDivider: UInt8 { settings.sampleRateDivider(internalRateHz: ICM20948Value.internalRateHz, slowestHz: 4.4) }
        /// GYRO_CONFIG_1: DLPFCFG in 5:3, FS_SEL in 2:1, FCHOICE 1 (DLPF on).
        public var gyroConfig1: UInt8 { (dlpf & 7) << 3 | settings.gyroRange.rawValue << 1 | 1 }
        /// ACCEL_CONFIG: DLPFCFG in 5:3, FS_SEL in 2:1, FCHOICE 1.
        public var accelConfig: UInt8 { (dlpf & 7) << 3 | settings.accelRange.rawValue << 1 | 1 }
    }

    public var bus: Bus
    public let address: UInt8
    public let configuration: Configuration
    public private(set) var whoAmI: UInt8 = 0

    public init(bus: Bus, address: UInt8 = 0x68, configuration: Configuration = Configuration()) {
        self.bus = bus
        self.address = address
        self.configuration = configuration
    }

    public var chipName: String { whoAmI == ICM20948Value.whoAmI ? "ICM-20948" : "ICM-20948 compatible (WHO_AM_I \(hex(whoAmI)))" }

    /// Resets (unless `reset` is false: a chip back from a power loss is reset already), wakes, sets ranges,
    /// filters and rates in bank 2, and enables the bypass for the AK09916.
    public mutating func initialize(delay: (Double) -> Void, reset: Bool = true) throws(SensorError) {
        try write(ICM20948Register.bankSelect, ICM20948Value.bank0)
        do { whoAmI = try bus.readRegister(address: address, register: ICM20948Register.whoAmI) } catch { throw .bus(error) }
        guard whoAmI == ICM20948Value.whoAmI || configuration.settings.acceptUnknownIdentity else {
            throw .unexpectedIdentity(bus: bus.name, address: address, register: ICM20948Register.whoAmI,
                                      found: whoAmI, expected: "0xea (ICM-20948, bank 0 register 0x00)")
        }
        if reset {
            try write(ICM20948Register.powerManagement1, ICM20948Value.deviceReset)
            delay(0.1)
            try write(ICM20948Register.bankSelect, ICM20948Value.bank0)  // the reset selects bank 0; say so anyway
        }
        try write(ICM20948Register.powerManagement1, ICM20948Value.awakeAutoClock)
        try write(ICM20948Register.powerManagement2, 0x00)
        delay(0.01)
        try write(ICM20948Register.bankSelect, ICM20948Value.bank2)
        try write(ICM20948Register.gyroSampleRateDivider, configuration.sampleRateDivider)
        try write(ICM20948Register.gyroConfig1, configuration.gyroConfig1)
        try write(ICM20948Register.accelSampleRateDivider1, 0x00)  // bits 11:8 of the 12-bit divider
        try write(ICM20948Register.accelSampleRateDivider2, configuration.sampleRateDivider)
        try write(ICM20948Register.accelConfig, configuration.accelConfig)
        try write(ICM20948Register.bankSelect, ICM20948Value.bank0)
        try write(ICM20948Register.userControl, 0x00)  // I2C_MST_EN off: the host reaches the AK09916 itself
        try write(ICM20948Register.intPinConfig, ICM20948Value.bypassEnable)
    }

    /// One 14-byte read at 0x2D (bank 0): accel, gyro, then temperature; SI units, chip frame.
    public mutating func readIMU() throws(SensorError) -> ImuSample {
        try InertialBlock.read(&bus, address: address, register: ICM20948Register.accelXHigh)
            .sample(accelAt: 0, gyroAt: 6, temperatureAt: 12, settings: configuration.settings,
                    temperatureSensitivity: ICM20948Value.temperatureSensitivity, temperatureOffset: ICM20948Value.temperatureOffset)
    }

    /// False when the chip lost its configuration (PWR_MGMT_1 back at 0x41 asleep, INT_PIN_CFG at 0) or
    /// another bank is selected (the data block would then read the wrong registers). Reads bank 0 only.
    public mutating func configurationIntact() throws(SensorError) -> Bool {
        do {
            let bank = try bus.readRegister(address: address, register: ICM20948Register.bankSelect)
            if bank & 0x30 != ICM20948Value.bank0 { return false }
            let power = try bus.readRegister(address: address, register: ICM20948Register.powerManagement1)
            let pin = try bus.readRegister(address: address, register: ICM20948Register.intPinConfig)
            return power == ICM20948Value.awakeAutoClock && pin == ICM20948Value.bypassEnable
        } catch { throw .bus(error) }
    }

    private mutating func write(_ register: UInt8, _ value: UInt8) throws(SensorError) {
        do { try bus.writeRegister(address: address, register: register, value: value) } catch { throw .bus(error) }
    }
}

// MARK: Detection

extension ICM20948 {
    /// Bank-0 register 0x00 (0xEA on an ICM-20948), nil when nothing answers. REG_BANK_SEL (0x7F) is only
    /// written when it reads like a bank selection (0x10/0x20/0x30): on the MPU family 0x7F is an
    /// accelerometer offset trim, never to be touched.
    public static func probe(_ bus: inout Bus, address a: UInt8) -> UInt8? {
        guard let first = try? bus.readRegister(address: a, register: ICM20948Register.whoAmI) else { return nil }
        if first == ICM20948Value.whoAmI { return first }
        guard let bank = try? bus.readRegister(address: a, register: ICM20948Register.bankSelect),
              [0x10, 0x20, 0x30].contains(bank) else { return first }
        guard (try? bus.writeRegister(address: a, register: ICM20948Register.bankSelect, value: ICM20948Value.bank0)) != nil else { return first }
        return try? bus.readRegister(address: a, register: ICM20948Register.whoAmI)
    }

    /// Selects bank 0, wakes the chip, switches its I²C master off and its bypass on, so the AK09916 answers
    /// at 0x0C. The same writes `initialize` makes.
    public static func openBypass(_ bus: inout Bus, address a: UInt8) {
        try? bus.writeRegister(address: a, register: ICM20948Register.bankSelect, value: ICM20948Value.bank0)
        try? bus.writeRegister(address: a, register: ICM20948Register.powerManagement1, value: ICM20948Value.awakeAutoClock)
        try? bus.writeRegister(address: a, register: ICM20948Register.userControl, value: 0x00)
        try? bus.writeRegister(address: a, register: ICM20948Register.intPinConfig, value: ICM20948Value.bypassEnable)
    }
}
