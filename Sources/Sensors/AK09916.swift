import Geometry
import Hardware

// MARK: Detection (BoardDetector calls this; the driver follows)

extension AK09916 {
    /// Reads WIA1/WIA2 at 0x0C behind the ICM-20948's bypass: 0x48 (AKM) then 0x09 (AK09916).
    public static func probe(_ bus: inout Bus) -> MagnetometerProbe {
        .compare(&bus, address: AK09916Register.address, register: AK09916Register.wia1,
                 expected: [AKM.companyID, AK09916Value.deviceID],
                 absent: .silent(note: "0x0c: no AK09916 answered behind the ICM-20948's bypass"),
                 found: "0x0c: AK09916 magnetometer behind the ICM-20948's bypass (WIA1/WIA2 0x48/0x09)") { _, wia in
            .unidentified("0x0c: unknown chip behind the ICM-20948's bypass (WIA1/WIA2 \(hex(wia[0]))/\(hex(wia[1])))")
        }
    }
}

// MARK: Register map (AKM 015007392-E-02 §10–11; hardware-facts §1.6)

public enum AK09916Register {
    public static let address: UInt8 = 0x0C
    public static let wia1: UInt8 = 0x00
    public static let wia2: UInt8 = 0x01
    /// ST1 (bits in `AKM`). A read of ST1..ST2 is 9 bytes: ST1, HXL..HZH, TMPS, ST2.
    public static let st1: UInt8 = 0x10
    public static let hxl: UInt8 = 0x11
    /// ST2 (HOFL in `AKM`). Reading it ends a data read (releases the latch), as on the AK8963.
    public static let st2: UInt8 = 0x18
    /// CNTL2: MODE[4:0].
    public static let cntl2: UInt8 = 0x31
    /// CNTL3: [0] SRST.
    public static let cntl3: UInt8 = 0x32
}

public enum AK09916Value {
    /// WIA2 (WIA1 holds `AKM.companyID`).
    public static let deviceID: UInt8 = 0x09
    public static let powerDown: UInt8 = 0x00
    /// Continuous measurement mode 4: 100 Hz. (Mode 1 = 0x02 10 Hz, 2 = 0x04 20 Hz, 3 = 0x06 50 Hz.)
    public static let continuous100Hz: UInt8 = 0x08
    public static let softReset: UInt8 = 0x01
    /// 0.15 µT per LSB (±32752 ↔ ±4912 µT). There is no fuse ROM: no sensitivity adjustment.
    public static let microteslaPerLSB = 0.15
}

// MARK: Driver

/// Driver for the AK09916 magnetometer inside the ICM-20948, reached through the ICM's bypass at 0x0C.
/// Returns the field in the ICM's accel/gyro frame: AK09916 (x, y, z) → (x, −y, −z) (hardware-facts §1.6).
public struct AK09916<Bus: I2CBus> {
    public var bus: Bus
    public let address: UInt8

    public init(bus: Bus, address: UInt8 = AK09916Register.address) {
        self.bus = bus
        self.address = address
    }

    public var chipName: String { "AK09916" }

    /// Checks WIA1/WIA2, soft-resets, and starts continuous measurement at 100 Hz.
    public mutating func initialize(delay: (Double) -> Void) throws(SensorError) {
        var wia: (UInt8, UInt8) = (0, 0)
        do {
            try withUnsafeMutableBytes(of: &wia) { (b) throws(I2CError) in
                try bus.readRegisters(address: address, register: AK09916Register.wia1, into: b.bindMemory(to: UInt8.self))
            }
        } catch {
            throw .magnetometerMissing(bus: bus.name, detail: "nothing answered at \(hex(address)) with the ICM-20948's bypass enabled")
        }
        guard wia == (AKM.companyID, AK09916Value.deviceID) else {
            throw .magnetometerMissing(bus: bus.name, detail: "the chip at \(hex(address)) answered WIA1/WIA2 \(hex(wia.0))/\(hex(wia.1)), an AK09916 answers 0x48/0x09")
        }
        try write(AK09916Register.cntl3, AK09916Value.softReset)
        delay(0.001)
        try write(AK09916Register.cntl2, AK09916Value.powerDown)
        delay(0.001)  // mode changes go through power-down (Twat ≥ 100 µs)
        try write(AK09916Register.cntl2, AK09916Value.continuous100Hz)
        delay(0.01)
    }

    /// ST1..ST2 in one 9-byte read. nil when no new measurement is ready; throws `.magneticOverflow` on HOFL.
    public mutating func read() throws(SensorError) -> MagSample? {
        guard let (die, overrun) = try AKM.readMeasurement(&bus, address: address, st1Register: AK09916Register.st1, st2At: 8) else {
            return nil
        }
        let field = die * AK09916Value.microteslaPerLSB
        return MagSample(field: Vector3(field.x, -field.y, -field.z), overrun: overrun)
    }

    /// False when CNTL2 no longer holds continuous mode 4 (power loss resets it to power-down).
    public mutating func configurationIntact() throws(SensorError) -> Bool {
        do { return try bus.readRegister(address: address, register: AK09916Register.cntl2) == AK09916Value.continuous100Hz } catch {
            throw .bus(error)
        }
    }

    private mutating func write(_ register: UInt8, _ value: UInt8) throws(SensorError) {
        do { try bus.writeRegister(address: address, register: register, value: value) } catch { throw .bus(error) }
    }
}
