import Geometry
import Sensors

/// Register-level model of the AK8963 magnetometer inside the MPU-9250: WIA 0x48, fuse ROM (ASA) readable in
/// fuse-ROM mode, CNTL1 modes (power-down, single, continuous 8/100 Hz, 14/16-bit), little-endian data with
/// ST1.DRDY/DOR, the read latch released by reading ST2, and ST2.HOFL on overflow. Its axes are those of
/// the die: in the MPU's frame the field is (y, x, −z), so the model produces (m_y, m_x, −m_z) from it.
public final class AK8963Model: AKMDieModel, SimulatedChip {
    /// Fuse ROM sensitivity adjustment values.
    public var asa: (UInt8, UInt8, UInt8) = (176, 177, 165)
    /// Emulate the chip's real sensitivity spread, so applying ASA is what makes readings right.
    public var applySensitivitySpread = true

    public init(clock: VirtualClock, host: InvenSenseModel) {
        // WIA (company) and INFO (not specified; any value).
        super.init(Layout(registerCount: 0x13, st1: 0x02, st2: 0x09, resetValues: [(0x00, AKM.companyID), (0x01, 0x9A)]),
                   clock: clock, host: host)
    }

    var mode: UInt8 { registers[0x0A] & 0x0F }
    var sixteenBit: Bool { registers[0x0A] & 0x10 != 0 }
    override var st2ModeBits: UInt8 { sixteenBit ? 0x10 : 0 }  // BITM

    private func adjustment(_ v: UInt8) -> Double { (Double(v) - 128) * 0.5 / 128 + 1 }

    /// Takes a new measurement if the continuous-mode period has elapsed.
    private func measure() {
        let rate: Double
        switch mode {
        case 0x02: rate = 8
        case 0x06: rate = 100
        default: return
        }
        guard let mpuField = measurementDue(rate: rate) else { return }
        // MPU frame → die frame: die x = MPU y, die y = MPU x, die z = −MPU z.
        var die = Vector3(mpuField.y, mpuField.x, -mpuField.z)
        if applySensitivitySpread {
            die = Vector3(die.x / adjustment(asa.0), die.y / adjustment(asa.1), die.z / adjustment(asa.2))
        }
        let lsb = sixteenBit ? 0.15 : 0.6
        let limit = sixteenBit ? 32760.0 : 8190.0
        let overflow = abs(die.x) + abs(die.y) + abs(die.z) >= 4912
        func counts(_ v: Double) -> Int16 { RegisterStorage.counts(v / lsb, limit: limit) }
        measured(.init(x: counts(die.x), y: counts(die.y), z: counts(die.z), overflow: overflow))
    }

    public func read(register: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        measure()
        var r = Int(register)
        for i in 0..<buffer.count {
            if r >= 0x10 && r <= 0x12 {
                buffer[i] = mode == 0x0F ? [asa.0, asa.1, asa.2][r - 0x10] : 0
            } else if r < registers.count {
                buffer[i] = registers[r]
            } else {
                buffer[i] = 0
            }
            didRead(r)
            // Auto-increment wraps within 0x00–0x0C and within 0x10–0x12.
            r += 1
            if r == 0x0D { r = 0x00 }
            if r == 0x13 { r = 0x10 }
        }
    }

    public func write(register: UInt8, value: UInt8) {
        switch register {
        case 0x0A:
            registers[0x0A] = value
            modeChanged()
        case 0x0B where value & 0x01 != 0:
            powerOnReset()  // SRST
        case 0x0B, 0x0C, 0x0F:
            registers[Int(register)] = value
        default:
            return  // read-only
        }
    }
}
