import Geometry
import Sensors

/// Register-level model of the AK09916 inside the ICM-20948: WIA1/WIA2 0x48/0x09; ST1 (DRDY, DOR) at 0x10;
/// little-endian data at 0x11–0x16, TMPS 0x17, ST2 (HOFL) 0x18; data protected from a data read until ST2
/// is read; CNTL2 modes 10/20/50/100 Hz; CNTL3 soft reset; no fuse ROM. Visible only through the ICM's
/// bypass. Its axes: in the ICM's frame the field is (x, −y, −z) of the die's.
public final class AK09916Model: AKMDieModel, SimulatedChip {
    public init(clock: VirtualClock, host: ICM20948Model) {
        // WIA1 (company) and WIA2 (device).
        super.init(Layout(registerCount: 0x33, st1: 0x10, st2: 0x18, resetValues: [(0x00, AKM.companyID), (0x01, 0x09)]),
                   clock: clock, host: host)
    }

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
        guard let rate = rateHz, let icm = measurementDue(rate: rate) else { return }
        let die = Vector3(icm.x, -icm.y, -icm.z)  // ICM frame → die frame (the mapping is its own inverse)
        // HOFL: the AK8963's criterion, |X|+|Y|+|Z| ≥ 4912 µT (model assumption for the AK09916).
        let overflow = abs(die.x) + abs(die.y) + abs(die.z) >= 4912
        func counts(_ v: Double) -> Int16 { RegisterStorage.counts(v / 0.15, limit: 32752) }
        measured(.init(x: counts(die.x), y: counts(die.y), z: counts(die.z), overflow: overflow))
    }

    public func read(register: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        measure()
        var r = Int(register)
        for i in 0..<buffer.count {
            buffer[i] = r < registers.count ? registers[r] : 0
            didRead(r)
            r += 1
        }
    }

    public func write(register: UInt8, value: UInt8) {
        switch register {
        case 0x31:
            registers[0x31] = value & 0x1F
            modeChanged()
        case 0x32 where value & 0x01 != 0:
            powerOnReset()  // SRST
        default:
            return
        }
    }
}
