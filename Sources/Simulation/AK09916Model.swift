import Geometry
import Sensors

/// Register-level model of the AK09916 inside the ICM-20948: WIA1/WIA2 0x48/0x09; ST1 (DRDY, DOR) at 0x10;
/// little-endian data at 0x11–0x16, TMPS 0x17, ST2 (HOFL) 0x18; data protected from a data read until ST2
/// is read; CNTL2 modes 10/20/50/100 Hz; CNTL3 soft reset; no fuse ROM. Visible only through the ICM's
/// bypass. Its axes: in the ICM's frame the field is (x, −y, −z) of the die's.
public final class AK09916Model: SimulatedChip {
    public var registers = [UInt8](repeating: 0, count: 0x33)
    public let clock: VirtualClock
    public unowned let host: ICM20948Model
    private var measurements = MagnetometerMeasurements()

    public init(clock: VirtualClock, host: ICM20948Model) {
        self.clock = clock
        self.host = host
        powerOnReset()
    }

    public func powerOnReset() {
        for i in registers.indices { registers[i] = 0 }
        registers[0x00] = 0x48
        registers[0x01] = 0x09
        measurements.reset()
    }

    public var isVisible: Bool { host.bypassEnabled }

    private var rateHz: Double? {
        switch registers[0x31] & 0x1F {
        case 0x02: return 10
        case 0x04: return 20
        case 0x06: return 50
        case 0x08: return 100
        default: return nil
        }
    }

    private func measure() {
        guard let rate = rateHz else { return }
        guard let (t, overrun) = measurements.due(now: clock.seconds, rate: rate, unread: registers[0x10] & 0x01 != 0) else { return }
        if overrun { registers[0x10] |= 0x02 }  // DOR
        let icm = host.sensor.magnetometer(host.motion.state(at: t), at: t)
        let die = Vector3(icm.x, -icm.y, -icm.z)  // ICM frame → die frame (the mapping is its own inverse)
        // HOFL: the AK8963's criterion, |X|+|Y|+|Z| ≥ 4912 µT (model assumption for the AK09916).
        let overflow = abs(die.x) + abs(die.y) + abs(die.z) >= 4912
        func counts(_ v: Double) -> Int16 { RegisterStorage.counts(v / 0.15, limit: 32752) }
        publish(measurements.measured(.init(x: counts(die.x), y: counts(die.y), z: counts(die.z), overflow: overflow)))
    }

    private func publish(_ sample: MagnetometerMeasurements.Sample?) {
        guard let p = sample else { return }
        RegisterStorage.storeLittleEndian(p.x, into: &registers, at: 0x11)
        RegisterStorage.storeLittleEndian(p.y, into: &registers, at: 0x13)
        RegisterStorage.storeLittleEndian(p.z, into: &registers, at: 0x15)
        registers[0x18] = p.overflow ? 0x08 : 0
        registers[0x10] |= 0x01
    }

    public func read(register: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        measure()
        var r = Int(register)
        for i in 0..<buffer.count {
            buffer[i] = r < registers.count ? registers[r] : 0
            if r >= 0x11 && r <= 0x17 {
                measurements.dataRead()
                registers[0x10] &= ~0x03  // reading data clears DRDY and DOR
            }
            if r == 0x18 {  // reading ST2 ends the read: new data may be published
                registers[0x10] &= ~0x03
                publish(measurements.readEnded())
            }
            r += 1
        }
    }

    public func write(register: UInt8, value: UInt8) {
        switch register {
        case 0x31:
            registers[0x31] = value & 0x1F
            measurements.restartClock()
            registers[0x10] = 0
        case 0x32 where value & 0x01 != 0:
            powerOnReset()
        default:
            return
        }
    }
}
