import Geometry
import Hardware

// MARK: Detection (BoardDetector calls this; the driver follows)

extension AK8963 {
    /// Reads WIA (0x00) at 0x0C behind an MPU's bypass. WIA 0x48 behind a WHO_AM_I 0x68 chip is an MPU-9150's
    /// AK8975 (same company ID, no continuous mode), so it is not taken for an AK8963 there.
    public static func probe(_ bus: inout Bus, behind imu: IMUKind) -> MagnetometerProbe {
        let absent = imu == .mpu9250
            ? MagnetometerProbe.silent(note: "0x0c: no AK8963 answered behind the MPU's bypass: an \"MPU-9250\" without a working magnetometer")
            : .silent
        return .compare(&bus, address: AK8963Register.address, register: AK8963Register.wia, expected: [AKM.companyID],
                        trusted: imu != .mpu6050, absent: absent,
                        found: "0x0c: AK8963 magnetometer behind the MPU's bypass (WIA 0x48)") { _, wia in
            wia[0] == AKM.companyID
                ? .unidentified("0x0c: AKM magnetometer (WIA 0x48) behind a WHO_AM_I 0x68 chip",
                                note: "0x0c: probably an MPU-9150's AK8975, which this build does not drive (no continuous mode)")
                : .unidentified("0x0c: unknown chip behind the MPU's bypass (WIA \(hex(wia[0])), an AK8963 answers 0x48)")
        }
    }
}

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
        guard wia == AKM.companyID else {
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
        guard let (die, overrun) = try AKM.readMeasurement(&bus, address: address, st1Register: AK8963Register.st1, st2At: 7) else {
            return nil
        }
        let field = die * adjustment * AK8963Value.microteslaPerLSB16
        return MagSample(field: Vector3(field.y, field.x, -field.z), overrun: overrun)
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
