import Geometry
import Hardware

/// Driver for the AK8963 magnetometer inside the MPU-9250/9255, reached through the MPU's bypass at 0x0C
/// (register map: AK8963Register / AK8963Value in MPU9250Registers.swift, AKM MS1356-E-02 §8).
/// Returns the field in the MPU's accel/gyro frame: AK8963 (x, y, z) → (y, x, −z) (hardware-facts §1.4).
public struct AK8963<Bus: I2CBus> {
    public var bus: Bus
    public let address: UInt8
    /// Fuse ROM sensitivity adjustment (ASAX/Y/Z) and the factors made of it (≈ 1.0–1.05 on genuine parts).
    public private(set) var fuseROM: (x: UInt8, y: UInt8, z: UInt8) = (128, 128, 128)
    public private(set) var adjustment = Vector3(1, 1, 1)

    public init(bus: Bus, address: UInt8 = AK8963Register.address) {
        self.bus = bus
        self.address = address
    }

    public var chipName: String { "AK8963" }

    /// All three ASA bytes at 0xFF (factor 1.498) is what broken or fake chips report (kriswiner/MPU9250#213).
    public var fuseROMLooksFake: Bool { fuseROM.x == 0xFF && fuseROM.y == 0xFF && fuseROM.z == 0xFF }

    /// Checks WIA, reads the fuse ROM, and starts 16-bit continuous measurement at 100 Hz (CNTL1 0x16).
    public mutating func initialize(delay: (Double) -> Void) throws(SensorError) {
        let wia: UInt8
        do { wia = try bus.readRegister(address: address, register: AK8963Register.wia) } catch {
            throw .magnetometerMissing(bus: bus.name, detail: "nothing answered at \(hex(address)) with the MPU's bypass enabled")
        }
        guard wia == AK8963Value.deviceID else {
            throw .magnetometerMissing(bus: bus.name, detail: "the chip at \(hex(address)) answered WIA \(hex(wia)), an AK8963 answers 0x48")
        }
        // Every mode change passes through power-down and waits Twat ≥ 100 µs (AK8963 §6.3).
        try write(AK8963Register.cntl1, AK8963Value.powerDown)
        delay(0.001)
        try write(AK8963Register.cntl1, AK8963Value.fuseROMAccess)
        delay(0.001)
        var asa: (UInt8, UInt8, UInt8) = (128, 128, 128)
        do {
            try withUnsafeMutableBytes(of: &asa) { (raw) throws(I2CError) in
                try bus.readRegisters(address: address, register: AK8963Register.asax, into: raw.bindMemory(to: UInt8.self))
            }
        } catch { throw .bus(error) }
        fuseROM = (asa.0, asa.1, asa.2)
        adjustment = Vector3(AK8963<Bus>.factor(asa.0), AK8963<Bus>.factor(asa.1), AK8963<Bus>.factor(asa.2))
        try write(AK8963Register.cntl1, AK8963Value.powerDown)
        delay(0.001)
        try write(AK8963Register.cntl1, AK8963Value.continuous100Hz16Bit)
        delay(0.01)  // first measurement after ~7.2 ms
    }

    /// Hadj = H × ((ASA − 128) × 0.5 / 128 + 1)  (AK8963 §8.3.11).
    static func factor(_ asa: UInt8) -> Double { (Double(asa) - 128) * 0.5 / 128 + 1 }

    /// ST1..ST2 in one 8-byte read (reading ST2 releases the data latch). nil when no new measurement is
    /// ready; throws `.magneticOverflow` when ST2.HOFL says the data are invalid.
    public mutating func read() throws(SensorError) -> MagSample? {
        var raw: UInt64 = 0
        do {
            try withUnsafeMutableBytes(of: &raw) { (bytes) throws(I2CError) in
                try bus.readRegisters(address: address, register: AK8963Register.st1, into: bytes.bindMemory(to: UInt8.self))
            }
        } catch { throw .bus(error) }
        let (st1, st2, die): (UInt8, UInt8, Vector3) = withUnsafeBytes(of: &raw) { b in
            func le(_ i: Int) -> Double { Double(Int16(bitPattern: UInt16(b[i + 1]) << 8 | UInt16(b[i]))) }
            return (b[0], b[7], Vector3(le(1), le(3), le(5)))
        }
        if st1 & AK8963Value.st1DataReady == 0 { return nil }
        if st2 & AK8963Value.st2Overflow != 0 { throw .magneticOverflow }
        let field = die * adjustment * AK8963Value.microteslaPerLSB16
        return MagSample(field: Vector3(field.y, field.x, -field.z), overrun: st1 & AK8963Value.st1DataOverrun != 0)
    }

    /// False when CNTL1 no longer holds 16-bit continuous mode 2 (0x16): the chip lost power (reset value 0).
    public mutating func configurationIntact() throws(SensorError) -> Bool {
        do { return try bus.readRegister(address: address, register: AK8963Register.cntl1) == AK8963Value.continuous100Hz16Bit } catch {
            throw .bus(error)
        }
    }

    private mutating func write(_ register: UInt8, _ value: UInt8) throws(SensorError) {
        do { try bus.writeRegister(address: address, register: register, value: value) } catch { throw .bus(error) }
    }
}
