import Geometry
import Sensors

/// Register-level model of an ICM-20948: four register banks behind REG_BANK_SEL (0x7F in every bank);
/// WHO_AM_I 0xEA at bank 0 register 0x00; powers up asleep (PWR_MGMT_1 = 0x41); data at bank 0 0x2D–0x3A in
/// the order accel, gyro, temperature (big-endian); ranges, filters and dividers in bank 2 (rate =
/// 1125 Hz / (1 + GYRO_SMPLRT_DIV) with the DLPF on, else 9 kHz); bypass via bank 0 INT_PIN_CFG (0x0F).
public final class ICM20948Model: SimulatedChip, MagnetometerHost {
    /// registers[bank][register]
    public var registers = [[UInt8]](repeating: [UInt8](repeating: 0, count: 128), count: 4)
    public private(set) var bank = 0
    public let whoAmI: UInt8
    public let clock: VirtualClock
    public var motion: MotionScript
    public var sensor: SensorModel
    public var temperature = 25.0
    private var lastSampleIndex: Int64 = -1

    public init(whoAmI: UInt8 = 0xEA, clock: VirtualClock, motion: MotionScript, sensor: SensorModel = SensorModel()) {
        self.whoAmI = whoAmI
        self.clock = clock
        self.motion = motion
        self.sensor = sensor
        powerOnReset()
    }

    /// DS-000189 §7–10 reset values for the registers the model uses.
    public func powerOnReset() {
        for b in 0..<4 { for r in 0..<128 { registers[b][r] = 0 } }
        bank = 0
        registers[0][0x00] = whoAmI
        registers[0][0x05] = 0x40  // LP_CONFIG
        registers[0][0x06] = 0x41  // PWR_MGMT_1: SLEEP, CLKSEL 1
        registers[2][0x01] = 0x01  // GYRO_CONFIG_1: FCHOICE 1
        registers[2][0x14] = 0x01  // ACCEL_CONFIG: FCHOICE 1
        lastSampleIndex = -1
    }

    public var isVisible: Bool { true }
    public var isAsleep: Bool { registers[0][0x06] & 0x40 != 0 }
    public var bypassEnabled: Bool { registers[0][0x0F] & 0x02 != 0 && registers[0][0x03] & 0x20 == 0 }

    public var sampleRateHz: Double {
        if registers[2][0x01] & 0x01 == 0 { return 9000 }
        return 1125 / (1 + Double(registers[2][0x00]))
    }

    public var gyroRange: GyroRange { GyroRange(rawValue: (registers[2][0x01] >> 1) & 3)! }
    public var accelRange: AccelRange { AccelRange(rawValue: (registers[2][0x14] >> 1) & 3)! }

    private func updateData() {
        if isAsleep { return }
        let rate = sampleRateHz
        let index = Int64((clock.seconds * rate).rounded(.down))
        if index == lastSampleIndex { return }
        lastSampleIndex = index
        let state = motion.state(at: Double(index) / rate)
        let accel = sensor.accelerometer(state)
        let gyro = sensor.gyroscope(state)
        let accelLSB = accelRange.lsbPerG / Units.standardGravity
        let gyroLSB = gyroRange.lsbPerDegreePerSecond * Units.degreesPerRadian
        let values = [accel.x * accelLSB, accel.y * accelLSB, accel.z * accelLSB,
                      gyro.x * gyroLSB, gyro.y * gyroLSB, gyro.z * gyroLSB, (temperature - 21) * 333.87]
        for (i, v) in values.enumerated() {
            RegisterStorage.storeBigEndian(RegisterStorage.counts(v), into: &registers[0], at: 0x2D + 2 * i)
        }
        registers[0][0x1A] |= 0x01  // INT_STATUS_1.RAW_DATA_0_RDY_INT
    }

    public func read(register: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        if bank == 0 && Int(register) + buffer.count > 0x2D && register <= 0x3A { updateData() }
        for i in 0..<buffer.count {
            let r = (Int(register) + i) & 0x7F
            buffer[i] = r == 0x7F ? UInt8(bank << 4) : registers[bank][r]
        }
    }

    public func write(register: UInt8, value: UInt8) {
        let r = Int(register & 0x7F)
        if r == 0x7F { bank = Int(value >> 4) & 3; return }
        if bank == 0 {
            switch r {
            case 0x00: return  // WHO_AM_I is read-only
            case 0x06 where value & 0x80 != 0: powerOnReset(); return  // DEVICE_RESET
            default: break
            }
        }
        registers[bank][r] = value
    }
}
