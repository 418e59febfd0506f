import Geometry
import Hardware

// MARK: Detection (BoardDetector calls this; the driver follows)

extension HMC5883L {
    /// Reads identification A–C (0x0A–0x0C) at 0x1E ('H43' on an HMC5883L). A LIS3MDL shares the address;
    /// its WHO_AM_I (0x0F) reads 0x3D, and it is named so the user is not told to check the wiring.
    public static func probe(_ bus: inout Bus) -> MagnetometerProbe {
        let h43 = HMC5883LValue.identification
        return .compare(&bus, address: HMC5883LRegister.address, register: HMC5883LRegister.identificationA,
                        expected: [h43.0, h43.1, h43.2], found: "0x1e: HMC5883L magnetometer (identification 'H43')") { bus, id in
            if bus.probeBytes(HMC5883LRegister.address, 0x0F, 1) == [0x3D] {
                return MagnetometerProbe(answer: .other, findings: ["0x1e: LIS3MDL magnetometer (WHO_AM_I 0x3d), which this build does not drive"], notes: [])
            }
            return .unidentified("0x1e: unknown chip (0x0a–0x0c = \(id.map(hex).joined(separator: " ")), an HMC5883L answers 'H43')")
        }
    }
}

// MARK: Register map (Honeywell HMC5883L, as used by the kernel's hmc5843 driver; hardware-facts §1.7)

public enum HMC5883LRegister {
    public static let address: UInt8 = 0x1E
    /// CRA: [6:5] averaging, [4:2] output rate, [1:0] measurement bias.
    public static let configA: UInt8 = 0x00
    /// CRB: [7:5] gain.
    public static let configB: UInt8 = 0x01
    /// MODE: [1:0] 0 continuous, 1 single, 2/3 idle.
    public static let mode: UInt8 = 0x02
    /// Data X, Z, Y (in that order), big-endian int16, at 0x03–0x08.
    public static let dataXHigh: UInt8 = 0x03
    /// STATUS: [0] RDY, [1] LOCK.
    public static let status: UInt8 = 0x09
    /// Identification 'H', '4', '3' at 0x0A–0x0C (not 0x10–0x12, a decimal/hex mix-up in some headers).
    public static let identificationA: UInt8 = 0x0A
}

public enum HMC5883LValue {
    public static let identification: (UInt8, UInt8, UInt8) = (0x48, 0x34, 0x33)  // "H43"
    /// CRA = 8-sample averaging (11) | 75 Hz (110) | normal measurement (00).
    public static let configA: UInt8 = 0x78
    /// CRB = gain code 1: 1090 LSB/Ga, ±1.3 Ga nominal (valid counts −2048..2047 reach about 188 µT).
    public static let configB: UInt8 = 0x20
    public static let continuous: UInt8 = 0x00
    public static let statusReady: UInt8 = 0x01
    /// A channel that overflowed reads −4096.
    public static let overflowCount: Int16 = -4096
    /// 1090 LSB per gauss; 1 G = 100 µT.
    public static let microteslaPerLSB = 100.0 / 1090.0
    /// Power-on values: CRA 0x10 (15 Hz), CRB 0x20, MODE 0x01 (single).
    public static let resetValues: (UInt8, UInt8, UInt8) = (0x10, 0x20, 0x01)
}

// MARK: Driver

/// Driver for a standalone HMC5883L (on its own breakout, or on a GY-87's MPU-6050 auxiliary bus, reached
/// through the bypass). Trusted only when its "H43" identification answers: many boards sold as HMC5883L
/// carry a QMC5883L at 0x0D instead. Axes assumed aligned with the IMU's (see `magnetometerMount`).
public struct HMC5883L<Bus: I2CBus> {
    public var bus: Bus
    public let address: UInt8
    private var lastRaw: (UInt16, UInt16, UInt16)? = nil

    public init(bus: Bus, address: UInt8 = HMC5883LRegister.address) {
        self.bus = bus
        self.address = address
    }

    public var chipName: String { "HMC5883L" }

    public mutating func initialize(delay: (Double) -> Void) throws(SensorError) {
        var id: (UInt8, UInt8, UInt8) = (0, 0, 0)
        do {
            try withUnsafeMutableBytes(of: &id) { (b) throws(I2CError) in
                try bus.readRegisters(address: address, register: HMC5883LRegister.identificationA, into: b.bindMemory(to: UInt8.self))
            }
        } catch {
            throw .magnetometerMissing(bus: bus.name, detail: "nothing answered at \(hex(address)) (HMC5883L)")
        }
        guard id == HMC5883LValue.identification else {
            throw .magnetometerMissing(bus: bus.name, detail: "the chip at \(hex(address)) answered \(hex(id.0)) \(hex(id.1)) \(hex(id.2)) in 0x0a–0x0c, an HMC5883L answers 'H43' (0x48 0x34 0x33); a GY-271 board may carry a QMC5883L at 0x0d instead")
        }
        try write(HMC5883LRegister.configA, HMC5883LValue.configA)
        try write(HMC5883LRegister.configB, HMC5883LValue.configB)
        try write(HMC5883LRegister.mode, HMC5883LValue.continuous)
        lastRaw = nil
        delay(0.007)  // first measurement ~6 ms after entering continuous mode
    }

    /// X, Z, Y (6 bytes, big-endian) in one read. nil when they equal the previous read: the STATUS.RDY bit
    /// stays set between measurements (it only drops while the chip writes), and the "DA5883" sold as an
    /// HMC5883L has no working STATUS at all, so an unchanged block is the dependable "nothing new". A new
    /// measurement identical in all three axes to the last is dropped too, which noise makes rare and harmless.
    /// Throws `.magneticOverflow` at every read while a channel reads −4096.
    public mutating func read() throws(SensorError) -> MagSample? {
        var raw: (UInt16, UInt16, UInt16) = (0, 0, 0)
        do {
            try withUnsafeMutableBytes(of: &raw) { (b) throws(I2CError) in
                try bus.readRegisters(address: address, register: HMC5883LRegister.dataXHigh, into: b.bindMemory(to: UInt8.self))
            }
        } catch { throw .bus(error) }
        let x = Int16(bitPattern: UInt16(bigEndian: raw.0))
        let z = Int16(bitPattern: UInt16(bigEndian: raw.1))
        let y = Int16(bitPattern: UInt16(bigEndian: raw.2))
        // Overflow first: a saturated block stays the same, and must keep saying so.
        if x == HMC5883LValue.overflowCount || y == HMC5883LValue.overflowCount || z == HMC5883LValue.overflowCount {
            lastRaw = raw
            throw .magneticOverflow
        }
        if let last = lastRaw, last == raw { return nil }
        lastRaw = raw
        return MagSample(field: Vector3(Double(x), Double(y), Double(z)) * HMC5883LValue.microteslaPerLSB)
    }

    /// False when CRA/CRB/MODE no longer hold our values (after a power loss: 0x10/0x20/0x01).
    public mutating func configurationIntact() throws(SensorError) -> Bool {
        var c: (UInt8, UInt8, UInt8) = (0, 0, 0)
        do {
            try withUnsafeMutableBytes(of: &c) { (b) throws(I2CError) in
                try bus.readRegisters(address: address, register: HMC5883LRegister.configA, into: b.bindMemory(to: UInt8.self))
            }
        } catch { throw .bus(error) }
        return c.0 == HMC5883LValue.configA && c.1 == HMC5883LValue.configB && c.2 & 0x03 == HMC5883LValue.continuous
    }

    private mutating func write(_ register: UInt8, _ value: UInt8) throws(SensorError) {
        do { try bus.writeRegister(address: address, register: register, value: value) } catch { throw .bus(error) }
    }
}
