import Geometry
import Sensors

/// Register-level model of an MPU-6050 (WHO_AM_I 0x68): powers up asleep (PWR_MGMT_1 = 0x40) with its data
/// registers frozen until woken; one DLPF setting for both sensors; output rate = gyro rate (8 kHz with
/// DLPF_CFG 0 or 7, else 1 kHz) / (1 + SMPLRT_DIV); temperature raw = (T − 36.53) × 340; no ACCEL_CONFIG2.
/// Its auxiliary bus can be joined to the host bus (bypass), as on GY-87 boards carrying an HMC5883L.
public final class MPU6050Model: SimulatedChip, AuxiliaryBusHost {
    public var registers = [UInt8](repeating: 0, count: 128)
    public let whoAmI: UInt8
    public let clock: VirtualClock
    public var motion: MotionScript
    public var sensor: SensorModel
    /// Die temperature the model reports (°C).
    public var temperature = 25.0
    private var lastSampleIndex: Int64 = -1
    /// The sample FIFO (1024 bytes on the 6050) and the last sample the sample clock has produced
    /// (InvenSenseFIFOModel.swift).
    public internal(set) var fifo = SimulatedFIFO(capacity: 1024)
    var clockedSampleIndex: Int64 = -1

    public init(whoAmI: UInt8 = 0x68, clock: VirtualClock, motion: MotionScript, sensor: SensorModel = SensorModel()) {
        self.whoAmI = whoAmI
        self.clock = clock
        self.motion = motion
        self.sensor = sensor
        powerOnReset()
    }

    /// RM-MPU-6000A-00 §3: every register 0x00 except PWR_MGMT_1 = 0x40 (asleep) and WHO_AM_I.
    public func powerOnReset() {
        for i in registers.indices { registers[i] = 0 }
        registers[0x6B] = 0x40
        registers[0x75] = whoAmI
        lastSampleIndex = -1
        resetFIFOState()
    }

    public var isVisible: Bool { true }
    public var isAsleep: Bool { registers[0x6B] & 0x40 != 0 }
    public var bypassEnabled: Bool { registers[0x37] & 0x02 != 0 && registers[0x6A] & 0x20 == 0 }

    public var sampleRateHz: Double {
        let dlpf = registers[0x1A] & 0x07
        let gyroRate = (dlpf == 0 || dlpf == 7) ? 8000.0 : 1000.0
        return gyroRate / (1 + Double(registers[0x19]))
    }

    public var gyroRange: GyroRange { GyroRange(rawValue: (registers[0x1B] >> 3) & 3)! }
    public var accelRange: AccelRange { AccelRange(rawValue: (registers[0x1C] >> 3) & 3)! }

    private func updateData() {
        if isAsleep { return }
        let rate = sampleRateHz
        let index = Int64((clock.seconds * rate).rounded(.down))
        if index == lastSampleIndex { return }
        lastSampleIndex = index
        // The accelerometer samples at 1 kHz at most: above that the same accel sample repeats.
        let sampleTime = Double(index) / rate
        let state = motion.state(at: sampleTime)
        let accel = sensor.accelerometer(motion.state(at: (sampleTime * 1000).rounded(.down) / 1000))
        let gyro = sensor.gyroscope(state)
        let accelLSB = accelRange.lsbPerG / Units.standardGravity
        let gyroLSB = gyroRange.lsbPerDegreePerSecond * Units.degreesPerRadian
        let values = [accel.x * accelLSB, accel.y * accelLSB, accel.z * accelLSB, (temperature - 36.53) * 340,
                      gyro.x * gyroLSB, gyro.y * gyroLSB, gyro.z * gyroLSB]
        for (i, v) in values.enumerated() {
            RegisterStorage.storeBigEndian(RegisterStorage.counts(v), into: &registers, at: 0x3B + 2 * i)
        }
        registers[0x3A] |= 0x01  // INT_STATUS.DATA_RDY_INT
    }

    public func read(register: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        clockSamples()
        if readFIFORegisters(register: register, into: buffer) { return }
        if Int(register) + buffer.count > 0x3B { updateData() }
        for i in 0..<buffer.count {
            let r = (Int(register) + i) & 0x7F
            buffer[i] = registers[r]
            if r == 0x3A { registers[r] = 0 }  // INT_STATUS clears on read
        }
    }

    public func write(register: UInt8, value: UInt8) {
        clockSamples()
        if writeFIFORegister(register: register, value: value) { return }
        switch register {
        case 0x75, 0x3A: return  // WHO_AM_I, INT_STATUS: read-only
        case 0x6B where value & 0x80 != 0: powerOnReset()  // DEVICE_RESET
        default: registers[Int(register & 0x7F)] = value
        }
    }
}
