import Hardware
import Geometry

/// Driver for the MPU-9250 / MPU-9255 accelerometer and gyroscope, by direct register polling (or FIFO):
/// the MPU-6500's registers and facts with an AK8963 die in the package. The shared core switches the bypass
/// on, so that magnetometer answers at 0x0C; it has its own driver (`AK8963`). Generic over the bus, so it
/// runs unchanged on /dev/i2c-N and on the simulated bus.
public struct MPU9250<Bus: I2CBus>: InvenSenseCoreDriver {
    /// The MPU-6050/6500's settings: the same registers, the same 1 kHz internal rate and the same rule for
    /// SMPLRT_DIV.
    public typealias Configuration = InvenSenseConfiguration

    /// The shared register protocol, with this part's facts (its bus, address, identity and read-out come
    /// through `InvenSenseCoreDriver`).
    public var core: InvenSenseCore<Bus>

    public static var part: InvenSensePartInfo { InvenSensePartInfo(identities: [0x71: "MPU-9250", 0x73: "MPU-9255"]) }

    public init(bus: Bus, address: UInt8 = 0x68, configuration: Configuration = Configuration()) {
        core = InvenSenseCore(bus: bus, address: address, configuration: configuration, part: InvenSensePart(
            kind: .mpu9250, identities: MPU9250<Bus>.part.identities, hasAccelConfig2: true,
            temperatureSensitivity: MPU6500Value.temperatureSensitivity,
            temperatureOffset: MPU6500Value.temperatureOffset, fifoCapacity: 512))
    }
}

// MARK: Detection

extension MPU9250 {
    /// The name detection prints for a WHO_AM_I (0x75) value that means this chip (0x71 MPU-9250, 0x73
    /// MPU-9255), nil for any other.
    public static func probe(whoAmI: UInt8) -> String? { part.identities[whoAmI] }

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
