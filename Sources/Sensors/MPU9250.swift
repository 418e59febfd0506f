import Hardware
import Geometry

/// Driver for the MPU-9250 / MPU-9255 accelerometer and gyroscope, by direct register polling (or FIFO).
/// It switches the bypass on so the AK8963 inside the package answers at 0x0C; that magnetometer has its own
/// driver (`AK8963`). Generic over the bus, so it runs unchanged on /dev/i2c-N and on the simulated bus.
public struct MPU9250<Bus: I2CBus> {
    /// The MPU-6050/6500's settings: the same registers, the same 1 kHz internal rate and the same rule for
    /// SMPLRT_DIV (rounded down, so the chip is never slower than the loop; rounding to nearest made a
    /// 180 Hz request run the chip at 166.7 Hz, handing the loop repeated samples).
    public typealias Configuration = InvenSenseConfiguration

    public var bus: Bus
    public let address: UInt8
    public let configuration: Configuration
    public private(set) var whoAmI: UInt8 = 0

    public static var knownWhoAmI: [UInt8: String] { [0x71: "MPU-9250", 0x73: "MPU-9255"] }

    public init(bus: Bus, address: UInt8 = 0x68, configuration: Configuration = Configuration()) {
        self.bus = bus
        self.address = address
        self.configuration = configuration
    }

    public var chipName: String { MPU9250<Bus>.knownWhoAmI[whoAmI] ?? "MPU-9250 compatible (WHO_AM_I \(hex(whoAmI)))" }

    // MARK: Set-up

    /// Resets and configures the chip. `delay` waits the given seconds (real or simulated).
    /// `reset: false` skips the H_RESET pulse and its 100 ms wait, for a chip that has just come back from a
    /// power loss and so is in its reset state already.
    public mutating func initialize(delay: (Double) -> Void, reset: Bool = true) throws(SensorError) {
        do {
            whoAmI = try bus.readRegister(address: address, register: MPU9250Register.whoAmI)
        } catch { throw .bus(error) }
        guard MPU9250<Bus>.knownWhoAmI[whoAmI] != nil || configuration.settings.acceptUnknownIdentity else {
            throw .unexpectedIdentity(bus: bus.name, address: address, register: MPU9250Register.whoAmI,
                                      found: whoAmI, expected: "0x71 (MPU-9250) or 0x73 (MPU-9255)")
        }
        if reset {
            try write(MPU9250Register.powerManagement1, MPU9250Bits.deviceReset)
            delay(0.1)  // register access is available ≤ 100 ms after a reset (DS9250 §3.4.2)
        }
        try write(MPU9250Register.powerManagement1, MPU9250Bits.clockAutoPLL)
        try write(MPU9250Register.powerManagement2, 0x00)
        delay(0.01)
        try configureSensors()
    }

    private mutating func configureSensors() throws(SensorError) {
        try write(MPU9250Register.config, configuration.dlpf & 0x07)
        try write(MPU9250Register.smplrtDiv, configuration.sampleRateDivider)
        try write(MPU9250Register.gyroConfig, configuration.settings.gyroRange.registerValue)  // FCHOICE_B = 00: DLPF in use
        try write(MPU9250Register.accelConfig, configuration.settings.accelRange.registerValue)
        try write(MPU9250Register.accelConfig2, configuration.dlpf & 0x07)
        // Bypass mode: internal I²C master off, auxiliary bus joined to the host bus so the AK8963 answers at 0x0C.
        try write(MPU9250Register.userControl, 0x00)
        try write(MPU9250Register.intPinConfig, MPU9250Bits.bypassEnable)
    }

    // MARK: Per sample (no allocation)

    /// Reads accelerometer, temperature and gyroscope in one 14-byte transaction; SI units, MPU chip frame.
    /// Temperature: RM9250 §4.23, room-temperature offset 0 LSB at 21 °C.
    public mutating func readIMU() throws(SensorError) -> ImuSample {
        try InertialBlock.read(&bus, address: address, register: MPU9250Register.accelXHigh)
            .sample(accelAt: 0, gyroAt: 8, temperatureAt: 6, settings: configuration.settings,
                    temperatureSensitivity: 333.87, temperatureOffset: 21)
    }

    /// True when the chip still holds our configuration. A chip that lost power comes back with its reset
    /// values (INT_PIN_CFG = 0, GYRO_CONFIG = 0), which this detects so the caller can re-initialise it.
    public mutating func configurationIntact() throws(SensorError) -> Bool {
        let pin: UInt8
        let gyro: UInt8
        do {
            pin = try bus.readRegister(address: address, register: MPU9250Register.intPinConfig)
            gyro = try bus.readRegister(address: address, register: MPU9250Register.gyroConfig)
        } catch { throw .bus(error) }
        return pin == MPU9250Bits.bypassEnable && gyro == configuration.settings.gyroRange.registerValue
    }

    private mutating func write(_ register: UInt8, _ value: UInt8) throws(SensorError) {
        do { try bus.writeRegister(address: address, register: register, value: value) } catch { throw .bus(error) }
    }
}

// MARK: Detection

extension MPU9250 {
    /// The name detection prints for a WHO_AM_I (0x75) value that means this chip (0x71 MPU-9250, 0x73
    /// MPU-9255), nil for any other.
    public static func probe(whoAmI: UInt8) -> String? { knownWhoAmI[whoAmI] }

    /// Reads WHO_AM_I (0x75), the identity register of the whole MPU family: one read serves the MPU-6050,
    /// MPU-6500 and MPU-9250 probes.
    public static func readWhoAmI(_ bus: inout Bus, address: UInt8) throws(I2CError) -> UInt8 {
        try bus.readRegister(address: address, register: MPU9250Register.whoAmI)
    }

    /// Wakes the chip, switches its I²C master off and its bypass on, so chips on its auxiliary bus answer
    /// on the host bus. The MPU-6050 and MPU-6500 share these registers. The same writes `initialize` makes.
    public static func openBypass(_ bus: inout Bus, address a: UInt8) {
        try? bus.writeRegister(address: a, register: MPU9250Register.powerManagement1, value: MPU9250Bits.clockAutoPLL)
        try? bus.writeRegister(address: a, register: MPU9250Register.userControl, value: 0x00)
        try? bus.writeRegister(address: a, register: MPU9250Register.intPinConfig, value: MPU9250Bits.bypassEnable)
    }
}
