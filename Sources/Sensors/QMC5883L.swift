import Geometry
import Hardware

// MARK: Detection (BoardDetector calls this; the driver follows)

extension QMC5883L {
    /// Reads the chip-ID register 0x0D at 0x0D (0xFF on a QMC5883L).
    public static func probe(_ bus: inout Bus) -> MagnetometerProbe {
        .compare(&bus, address: QMC5883LRegister.address, register: QMC5883LRegister.chipID, expected: [QMC5883LValue.chipID],
                 found: "0x0d: QMC5883L magnetometer (chip ID 0xff)") { _, id in
            .unidentified("0x0d: unknown chip (register 0x0d = \(hex(id[0])), a QMC5883L answers 0xff)")
        }
    }
}

// MARK: Register map (QST QMC5883L, as used by the kernel's qmc5883l.c; hardware-facts §1.7)

public enum QMC5883LRegister {
    public static let address: UInt8 = 0x0D
    /// X, Y, Z little-endian int16 at 0x00–0x05.
    public static let dataXLow: UInt8 = 0x00
    /// STATUS: [0] DRDY, [1] OVL, [2] DOR.
    public static let status: UInt8 = 0x06
    /// CTRL1: [7:6] OSR, [5:4] RNG, [3:2] ODR, [1:0] MODE.
    public static let control1: UInt8 = 0x09
    /// CTRL2: [7] SOFT_RST, [0] INT_ENB.
    public static let control2: UInt8 = 0x0A
    public static let setResetPeriod: UInt8 = 0x0B
    public static let chipID: UInt8 = 0x0D
}

public enum QMC5883LValue {
    public static let chipID: UInt8 = 0xFF
    public static let softReset: UInt8 = 0x80
    /// CTRL2 INT_ENB = 1: data-ready interrupt pin disabled (polling), as the kernel sets it.
    public static let interruptDisabled: UInt8 = 0x01
    /// SET/RESET period: the datasheet's recommended 0x01.
    public static let setResetPeriod: UInt8 = 0x01
    /// CTRL1 = OSR 512 (00) | RNG ±8 G (01) | ODR 100 Hz (10) | continuous (01). ±8 G rather than ±2 G: a
    /// headset carries speakers and clips, and 800 µT of range keeps their fields from overflowing.
    public static let continuous100Hz8Gauss: UInt8 = 0x19
    public static let statusDataReady: UInt8 = 0x01
    public static let statusOverflow: UInt8 = 0x02
    public static let statusDataOverrun: UInt8 = 0x04
    /// 3000 LSB/G at ±8 G; 1 G = 100 µT.
    public static let microteslaPerLSB8Gauss = 100.0 / 3000.0
}

// MARK: Driver

/// Driver for a standalone QMC5883L (the chip on most "GY-271 HMC5883L" boards sold today).
/// Its axes are assumed to be aligned with the IMU's (x with x, y with y, z with z): mount the breakout
/// that way, or give `magnetometerMount` in the config to say how it sits relative to the IMU.
public struct QMC5883L<Bus: I2CBus> {
    public var bus: Bus
    public let address: UInt8
    /// Accept a chip-ID register that does not read 0xFF (the kernel only warns: "rev 1.0 had this register
    /// reserved"). Only when the user pinned the chip in the config.
    public var acceptUnknownIdentity = false
    public private(set) var chipIDValue: UInt8 = 0

    public init(bus: Bus, address: UInt8 = QMC5883LRegister.address) {
        self.bus = bus
        self.address = address
    }

    public var chipName: String { "QMC5883L" }

    /// Soft reset, interrupt pin off, SET/RESET period 0x01, then continuous 100 Hz at ±8 G.
    public mutating func initialize(delay: (Double) -> Void) throws(SensorError) {
        do { chipIDValue = try bus.readRegister(address: address, register: QMC5883LRegister.chipID) } catch {
            throw .magnetometerMissing(bus: bus.name, detail: "nothing answered at \(hex(address)) (QMC5883L)")
        }
        guard chipIDValue == QMC5883LValue.chipID || acceptUnknownIdentity else {
            throw .magnetometerMissing(bus: bus.name, detail: "the chip at \(hex(address)) answered \(hex(chipIDValue)) in register 0x0d, a QMC5883L answers 0xff")
        }
        try write(QMC5883LRegister.control2, QMC5883LValue.softReset)
        delay(0.001)  // power-on-reset time 350 µs
        try write(QMC5883LRegister.control2, QMC5883LValue.interruptDisabled)
        try write(QMC5883LRegister.setResetPeriod, QMC5883LValue.setResetPeriod)
        try write(QMC5883LRegister.control1, QMC5883LValue.continuous100Hz8Gauss)
        delay(0.01)
    }

    /// STATUS first (DRDY, OVL, DOR), then X, Y, Z (6 bytes) when a measurement is ready. Reading STATUS
    /// before the data keeps DRDY meaningful: reading a data register clears it.
    public mutating func read() throws(SensorError) -> MagSample? {
        let status: UInt8
        var raw: (UInt16, UInt16, UInt16) = (0, 0, 0)
        do {
            status = try bus.readRegister(address: address, register: QMC5883LRegister.status)
            if status & QMC5883LValue.statusDataReady == 0 { return nil }
            try withUnsafeMutableBytes(of: &raw) { (b) throws(I2CError) in
                try bus.readRegisters(address: address, register: QMC5883LRegister.dataXLow, into: b.bindMemory(to: UInt8.self))
            }
        } catch { throw .bus(error) }
        if status & QMC5883LValue.statusOverflow != 0 { throw .magneticOverflow }
        // Little-endian on the wire; the tuple's UInt16s are little-endian in memory on every Pi and PC.
        func v(_ u: UInt16) -> Double { Double(Int16(bitPattern: UInt16(littleEndian: u))) }
        let field = Vector3(v(raw.0), v(raw.1), v(raw.2)) * QMC5883LValue.microteslaPerLSB8Gauss
        return MagSample(field: field, overrun: status & QMC5883LValue.statusDataOverrun != 0)
    }

    /// False when CTRL1 no longer holds continuous mode (a power loss leaves it in standby, 0x00).
    public mutating func configurationIntact() throws(SensorError) -> Bool {
        do { return try bus.readRegister(address: address, register: QMC5883LRegister.control1) == QMC5883LValue.continuous100Hz8Gauss } catch {
            throw .bus(error)
        }
    }

    private mutating func write(_ register: UInt8, _ value: UInt8) throws(SensorError) {
        do { try bus.writeRegister(address: address, register: register, value: value) } catch { throw .bus(error) }
    }
}
