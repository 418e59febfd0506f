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
    private var lastMeasurementIndex: Int64 = -1
    private var dataLatched = false
    private var pending: (Int16, Int16, Int16, overflow: Bool)? = nil

    public init(clock: VirtualClock, host: ICM20948Model) {
        self.clock = clock
        self.host = host
        powerOnReset()
    }

    public func powerOnReset() {
        for i in registers.indices { registers[i] = 0 }
        registers[0x00] = 0x48
        registers[0x01] = 0x09
        lastMeasurementIndex = -1
        dataLatched = false
        pending = nil
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
        let index = Int64((clock.seconds * rate).rounded(.down))
        if index == lastMeasurementIndex { return }
        // DOR: this measurement lands on unread data, or one landed unread since the last call.
        if lastMeasurementIndex >= 0 && (registers[0x10] & 0x01 != 0 || index - lastMeasurementIndex >= 2) { registers[0x10] |= 0x02 }
        lastMeasurementIndex = index
        let t = Double(index) / rate
        let icm = host.sensor.magnetometer(host.motion.state(at: t), at: t)
        let die = Vector3(icm.x, -icm.y, -icm.z)  // ICM frame → die frame (the mapping is its own inverse)
        // HOFL: the AK8963's criterion, |X|+|Y|+|Z| ≥ 4912 µT (model assumption for the AK09916).
        let overflow = abs(die.x) + abs(die.y) + abs(die.z) >= 4912
        pending = (RegisterStorage.counts(die.x / 0.15, limit: 32752), RegisterStorage.counts(die.y / 0.15, limit: 32752),
                   RegisterStorage.counts(die.z / 0.15, limit: 32752), overflow)
        if !dataLatched { publish() }
    }

    private func publish() {
        guard let p = pending else { return }
        pending = nil
        RegisterStorage.storeLittleEndian(p.0, into: &registers, at: 0x11)
        RegisterStorage.storeLittleEndian(p.1, into: &registers, at: 0x13)
        RegisterStorage.storeLittleEndian(p.2, into: &registers, at: 0x15)
        registers[0x18] = p.overflow ? 0x08 : 0
        registers[0x10] |= 0x01
    }

    public func read(register: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        measure()
        var r = Int(register)
        for i in 0..<buffer.count {
            buffer[i] = r < registers.count ? registers[r] : 0
            if r >= 0x11 && r <= 0x17 {
                dataLatched = true
                registers[0x10] &= ~0x03  // reading data clears DRDY and DOR
            }
            if r == 0x18 {  // reading ST2 ends the read: new data may be published
                dataLatched = false
                registers[0x10] &= ~0x03
                publish()
            }
            r += 1
        }
    }

    public func write(register: UInt8, value: UInt8) {
        switch register {
        case 0x31:
            registers[0x31] = value & 0x1F
            lastMeasurementIndex = -1
            registers[0x10] = 0
        case 0x32 where value & 0x01 != 0:
            powerOnReset()
        default:
            return
        }
    }
}
