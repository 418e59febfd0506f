import Geometry
import Hardware

/// Settings of the MPU-6050, MPU-6500 and MPU-9250 drivers: the rate, ranges and identity check every IMU
/// driver takes (`settings`), and the DLPF. The chip runs at 1 kHz / (1 + SMPLRT_DIV), never slower than
/// `settings.sampleRateHz`.
public struct InvenSenseConfiguration: Sendable, Equatable {
    public var settings = IMUSettings()
    /// DLPF_CFG for CONFIG (and ACCEL_CONFIG2 on the 6500): 2 = about 94 Hz gyro / 92 Hz accel, ample for head
    /// motion (under 20 Hz) while still anti-aliasing at 200 Hz sampling.
    public var dlpf: UInt8 = 2
    public init() {}
    init(settings: IMUSettings) { self.settings = settings }

    /// SMPLRT_DIV with the DLPF on (1 kHz internal rate).
    public var sampleRateDivider: UInt8 { settings.sampleRateDivider(internalRateHz: 1000, slowestHz: 4) }
}

/// What differs between the members of the InvenSense MPU family that share the register map of
/// hardware-facts §1.0 (data block at 0x3B, configuration at 0x19–0x1D, PWR_MGMT_1 at 0x6B).
struct InvenSensePart: Sendable {
    /// Which part; its display name ("MPU-6500") names chips that answer an identity the part does not list.
    var kind: IMUKind
    /// Identity values this part answers in WHO_AM_I (0x75), with names.
    var identities: [UInt8: String]
    /// ACCEL_CONFIG2 (0x1D) exists (6500 and later), holding the accelerometer's own DLPF.
    var hasAccelConfig2: Bool
    /// Temperature = raw / sensitivity + offset (°C).
    var temperatureSensitivity: Double
    var temperatureOffset: Double
    /// FIFO size in bytes: 1024 on the MPU-6050 (DS6050 §3.1), 512 on the MPU-6500/9250 (DS9250 §2.4).
    var fifoCapacity: Int
}

/// The register protocol shared by the MPU-6050, MPU-6500 and MPU-9250 drivers: reset, wake, ranges, DLPF, rate,
/// bypass, the 14-byte data block and the configuration read-back that notices a chip that was reset.
public struct InvenSenseCore<Bus: I2CBus> {
    var bus: Bus
    let address: UInt8
    let configuration: InvenSenseConfiguration
    let part: InvenSensePart
    private(set) var whoAmI: UInt8 = 0

    init(bus: Bus, address: UInt8, configuration: InvenSenseConfiguration, part: InvenSensePart) {
        self.bus = bus
        self.address = address
        self.configuration = configuration
        self.part = part
    }

    var chipName: String {
        part.identities[whoAmI] ?? "\(part.kind.displayName) compatible (WHO_AM_I \(hex(whoAmI)))"
    }

    /// `reset: false` skips the H_RESET pulse and its 100 ms wait: used when the chip has just come back
    /// from a power loss and so is already in its reset state.
    mutating func initialize(delay: (Double) -> Void, reset: Bool) throws(SensorError) {
        do { whoAmI = try bus.readRegister(address: address, register: MPU9250Register.whoAmI) } catch { throw .bus(error) }
        guard part.identities[whoAmI] != nil || configuration.settings.acceptUnknownIdentity else {
            throw .unexpectedIdentity(bus: bus.name, address: address, register: MPU9250Register.whoAmI,
                                      found: whoAmI, expected: InvenSensePartInfo(identities: part.identities).expected)
        }
        if reset {
            try write(MPU9250Register.powerManagement1, MPU9250Bits.deviceReset)
            delay(0.1)  // the kernel waits 100 ms after H_RESET (hardware-facts §1.0)
        }
        // Wake (the 6050 resets asleep, 0x40) with CLKSEL 1: PLL (gyro X reference on the 6050, auto on the 6500).
        try write(MPU9250Register.powerManagement1, MPU9250Bits.clockAutoPLL)
        try write(MPU9250Register.powerManagement2, 0x00)
        delay(0.01)
        try write(MPU9250Register.config, configuration.dlpf & 0x07)
        try write(MPU9250Register.smplrtDiv, configuration.sampleRateDivider)
        try write(MPU9250Register.gyroConfig, configuration.settings.gyroRange.registerValue)
        try write(MPU9250Register.accelConfig, configuration.settings.accelRange.registerValue)
        if part.hasAccelConfig2 { try write(MPU9250Register.accelConfig2, configuration.dlpf & 0x07) }
        // Bypass: the auxiliary bus joins the host bus, so an AK8963 (MPU-9250) or the HMC5883L of a GY-87
        // board answers directly. Harmless when nothing is on the auxiliary bus.
        try write(MPU9250Register.userControl, 0x00)
        try write(MPU9250Register.intPinConfig, MPU9250Bits.bypassEnable)
    }

    /// One 14-byte transaction at 0x3B: AX AY AZ T GX GY GZ, big-endian int16 (SI units, chip frame).
    mutating func readIMU() throws(SensorError) -> ImuSample {
        try InertialBlock.read(&bus, address: address, register: MPU9250Register.accelXHigh)
            .sample(accelAt: 0, gyroAt: 8, temperatureAt: 6, settings: configuration.settings,
                    temperatureSensitivity: part.temperatureSensitivity, temperatureOffset: part.temperatureOffset)
    }

    /// False when the chip no longer holds our configuration: after a power loss PWR_MGMT_1 is back at its
    /// reset value (0x40 asleep on the 6050, 0x01 on the 6500), and INT_PIN_CFG, GYRO_CONFIG and ACCEL_CONFIG at 0.
    mutating func configurationIntact() throws(SensorError) -> Bool {
        var ranges: (gyro: UInt8, accel: UInt8) = (0, 0)
        let pin: UInt8
        let power: UInt8
        do {
            try withUnsafeMutableBytes(of: &ranges) { (bytes) throws(I2CError) in
                try bus.readRegisters(address: address, register: MPU9250Register.gyroConfig,
                                      into: bytes.bindMemory(to: UInt8.self))
            }
            pin = try bus.readRegister(address: address, register: MPU9250Register.intPinConfig)
            power = try bus.readRegister(address: address, register: MPU9250Register.powerManagement1)
        } catch { throw .bus(error) }
        return pin == MPU9250Bits.bypassEnable && power == MPU9250Bits.clockAutoPLL
            && ranges.gyro == configuration.settings.gyroRange.registerValue
            && ranges.accel == configuration.settings.accelRange.registerValue
    }

    private mutating func write(_ register: UInt8, _ value: UInt8) throws(SensorError) {
        do { try bus.writeRegister(address: address, register: register, value: value) } catch { throw .bus(error) }
    }
}

/// The 14-byte data block every InvenSense IMU here reads in one transaction: accelerometer, gyroscope and
/// temperature as seven big-endian int16, in an order of the chip's own. 16 bytes of stack storage: nothing
/// is allocated per sample.
struct InertialBlock {
    private var raw = (UInt64(0), UInt64(0))

    @inline(__always)
    static func read<Bus: I2CBus>(_ bus: inout Bus, address: UInt8, register: UInt8) throws(SensorError) -> InertialBlock {
        var block = InertialBlock()
        do {
            try withUnsafeMutableBytes(of: &block.raw) { (bytes) throws(I2CError) in
                let b = UnsafeMutableBufferPointer(rebasing: bytes.bindMemory(to: UInt8.self)[0..<14])
                try bus.readRegisters(address: address, register: register, into: b)
            }
        } catch { throw .bus(error) }
        return block
    }

    /// SI units, chip frame: the accelerometer's and gyroscope's three words from the given byte offsets,
    /// temperature = word / sensitivity + offset (°C).
    @inline(__always)
    func sample(accelAt a: Int, gyroAt g: Int, temperatureAt t: Int, settings: IMUSettings,
                temperatureSensitivity: Double, temperatureOffset: Double) -> ImuSample {
        let accelScale = Units.standardGravity / settings.accelRange.lsbPerG
        let gyroScale = Units.radiansPerDegree / settings.gyroRange.lsbPerDegreePerSecond
        return withUnsafeBytes(of: raw) { b in
            func be(_ i: Int) -> Double { Double(Int16(bitPattern: UInt16(b[i]) << 8 | UInt16(b[i + 1]))) }
            return ImuSample(accel: Vector3(be(a), be(a + 2), be(a + 4)) * accelScale,
                             gyro: Vector3(be(g), be(g + 2), be(g + 4)) * gyroScale,
                             temperature: be(t) / temperatureSensitivity + temperatureOffset)
        }
    }
}

/// The MPU-6050, MPU-6500 and MPU-9250 drivers: each is its part's facts around the shared core, which does the
/// work, so all three show the same face here once.
public protocol InvenSenseCoreDriver {
    associatedtype Bus: I2CBus
    var core: InvenSenseCore<Bus> { get set }
}

extension InvenSenseCoreDriver {
    public var bus: Bus { core.bus }
    public var address: UInt8 { core.address }
    public var configuration: InvenSenseConfiguration { core.configuration }
    public var whoAmI: UInt8 { core.whoAmI }
    public var chipName: String { core.chipName }

    public mutating func initialize(delay: (Double) -> Void, reset: Bool = true) throws(SensorError) {
        try core.initialize(delay: delay, reset: reset)
    }

    /// Accelerometer, gyroscope and temperature in one 14-byte read; chip frame. Temperature by the part's
    /// formula (MPU-6050: raw/340 + 36.53 °C; MPU-6500: raw/333.87 + 21 °C).
    public mutating func readIMU() throws(SensorError) -> ImuSample { try core.readIMU() }

    public mutating func configurationIntact() throws(SensorError) -> Bool { try core.configurationIntact() }
}
