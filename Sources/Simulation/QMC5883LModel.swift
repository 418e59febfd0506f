import Geometry
import Sensors

/// Register-level model of a standalone QMC5883L at 0x0D: chip ID 0xFF at 0x0D; X, Y, Z little-endian at
/// 0x00–0x05; STATUS 0x06 (DRDY, OVL, DOR); CTRL1 0x09 (mode, ODR 10/50/100/200 Hz, range ±2/±8 G), CTRL2
/// 0x0A (soft reset), SET/RESET 0x0B. Powers up in standby. DRDY clears when a data register is read; DOR is
/// set when a measurement lands while DRDY is still set and clears when register 0x00 is read (QST datasheet
/// as recalled, not in the shared facts: a model assumption).
public final class QMC5883LModel: StandaloneMagnetometerModel, SimulatedChip {
    private var measurements = MagnetometerMeasurements()

    /// Chip ID.
    static let resetValues: [(register: Int, value: UInt8)] = [(0x0D, 0xFF)]

    public init(clock: VirtualClock, motion: MotionScript, sensor: SensorModel = SensorModel()) {
        super.init(registerCount: 0x0E, address: 0x0D, clock: clock, motion: motion, sensor: sensor)
        powerOnReset()
    }

    public func powerOnReset() {
        RegisterStorage.powerOn(&registers, Self.resetValues)
        measurements.reset()
    }

    private var rateHz: Double? {
        guard registers[0x09] & 0x03 == 0x01 else { return nil }
        return [10.0, 50, 100, 200][Int(registers[0x09] >> 2) & 3]
    }

    /// LSB per gauss: 12000 at ±2 G, 3000 at ±8 G.
    private var lsbPerGauss: Double { (registers[0x09] >> 4) & 3 == 1 ? 3000 : 12000 }

    private func measure() {
        guard let rate = rateHz else { return }
        guard let (t, overrun) = measurements.due(now: clock.seconds, rate: rate, unread: registers[0x06] & 0x01 != 0) else { return }
        if overrun { registers[0x06] |= 0x04 }  // DOR
        let die = fieldInChipAxes(at: t)
        let perMicrotesla = lsbPerGauss / 100
        let rangeMicrotesla = lsbPerGauss == 3000 ? 800.0 : 200.0  // ±8 G or ±2 G; 1 G = 100 µT
        let overflow = abs(die.x) > rangeMicrotesla || abs(die.y) > rangeMicrotesla || abs(die.z) > rangeMicrotesla
        for (i, v) in [die.x, die.y, die.z].enumerated() {
            RegisterStorage.storeLittleEndian(RegisterStorage.counts(v * perMicrotesla), into: &registers, at: 2 * i)
        }
        registers[0x06] = (registers[0x06] & 0x04) | (overflow ? 0x02 : 0) | 0x01
    }

    public func read(register: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        measure()
        for i in 0..<buffer.count {
            let r = Int(register) + i
            buffer[i] = r < registers.count ? registers[r] : 0
            if r <= 0x05 { registers[0x06] &= ~0x01 }  // reading data clears DRDY
            if r == 0x00 { registers[0x06] &= ~0x04 }  // ... and reading 0x00 clears DOR
        }
    }

    public func write(register: UInt8, value: UInt8) {
        switch register {
        case 0x0A where value & 0x80 != 0:
            powerOnReset()  // SOFT_RST
        case 0x09:
            registers[0x09] = value
            measurements.restartClock()
        case 0x0A, 0x0B:
            registers[Int(register)] = value
        default:
            return
        }
    }
}
