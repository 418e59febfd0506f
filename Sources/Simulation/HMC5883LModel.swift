import Geometry
import Sensors

/// Register-level model of an HMC5883L at 0x1E: CRA (averaging, output rate 0.75–75 Hz), CRB (gain
/// 1370…230 LSB/Ga), MODE (continuous / single / idle); data X, Z, Y big-endian at 0x03–0x08, −4096 in a
/// channel that overflows (valid −2048..2047); STATUS.RDY; identification 'H43' at 0x0A–0x0C. Powers up with
/// CRA 0x10, CRB 0x20, MODE 0x01 and no measurement made yet.
public final class HMC5883LModel: StandaloneMagnetometerModel, SimulatedChip {
    private var lastMeasurementIndex: Int64 = -1
    private var singleMeasurementAt: Double? = nil

    public static let gains: [Double] = [1370, 1090, 820, 660, 440, 390, 330, 230]
    public static let rates: [Double] = [0.75, 1.5, 3, 7.5, 15, 30, 75, 75]

    /// CRA (one sample per output, 15 Hz), CRB (gain 1090), mode (single), identification "H43".
    static let resetValues: [(register: Int, value: UInt8)] = [
        (0x00, 0x10), (0x01, 0x20), (0x02, 0x01), (0x0A, 0x48), (0x0B, 0x34), (0x0C, 0x33),
    ]

    public init(clock: VirtualClock, motion: MotionScript, sensor: SensorModel = SensorModel()) {
        super.init(registerCount: 0x0D, address: 0x1E, clock: clock, motion: motion, sensor: sensor)
        powerOnReset()
    }

    public func powerOnReset() {
        RegisterStorage.powerOn(&registers, Self.resetValues)
        lastMeasurementIndex = -1
        singleMeasurementAt = nil
    }

    private func store(at t: Double) {
        let die = fieldInChipAxes(at: t)
        let perMicrotesla = HMC5883LModel.gains[Int(registers[0x01] >> 5)] / 100
        func channel(_ v: Double) -> Int16 {
            let c = (v * perMicrotesla).rounded()
            return c < -2048 || c > 2047 ? -4096 : Int16(c)
        }
        // Register order X, Z, Y.
        RegisterStorage.storeBigEndian(channel(die.x), into: &registers, at: 0x03)
        RegisterStorage.storeBigEndian(channel(die.z), into: &registers, at: 0x05)
        RegisterStorage.storeBigEndian(channel(die.y), into: &registers, at: 0x07)
        registers[0x09] |= 0x01  // RDY
    }

    private func measure() {
        let t = clock.seconds
        switch registers[0x02] & 0x03 {
        case 0x00:
            let rate = HMC5883LModel.rates[Int(registers[0x00] >> 2) & 7]
            let index = Int64((t * rate).rounded(.down))
            if index == lastMeasurementIndex { return }
            lastMeasurementIndex = index
            store(at: Double(index) / rate)
        case 0x01:
            // Single measurement: ready ~6 ms after the MODE write, then the chip idles.
            if let at = singleMeasurementAt, t >= at {
                store(at: at)
                singleMeasurementAt = nil
                registers[0x02] = 0x03
            }
        default:
            return
        }
    }

    public func read(register: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        measure()
        for i in 0..<buffer.count {
            let r = Int(register) + i
            buffer[i] = r < registers.count ? registers[r] : 0
        }
    }

    public func write(register: UInt8, value: UInt8) {
        switch register {
        case 0x00, 0x01:
            registers[Int(register)] = value
        case 0x02:
            registers[0x02] = value
            lastMeasurementIndex = -1
            if value & 0x03 == 0x01 { singleMeasurementAt = clock.seconds + 0.006 }
        default:
            return  // data, status and identification are read-only
        }
    }
}
