import Geometry
import Sensors

/// Register-level model of the InvenSense MPU family: the MPU-6050 (WHO_AM_I 0x68), MPU-6500 (0x70) and
/// MPU-9250/9255 (0x71/0x73) share the register map of 0x19–0x75. Reset and sleep via PWR_MGMT_1, full-scale
/// ranges from GYRO/ACCEL_CONFIG, big-endian data at 0x3B..0x48 sampled at the configured rate, the sample FIFO
/// (InvenSenseFIFOModel.swift) and the bypass switch (INT_PIN_CFG.BYPASS_EN with USER_CTRL.I2C_MST_EN clear)
/// that joins the auxiliary bus (the MPU-9250's AK8963, a GY-87 board's HMC5883L) to the host bus. What differs
/// between the parts is in `Part`.
public final class InvenSenseModel: SimulatedChip, MagnetometerHost {
    /// The datasheet facts that tell the parts apart.
    public struct Part: Sendable {
        public var whoAmI: UInt8
        /// PWR_MGMT_1 after power-on: the MPU-6050 wakes asleep (0x40, RM-MPU-6000A-00 §3), the 6500/9250 with
        /// CLKSEL = 1 (0x01, RM-MPU-9250A-00).
        public var powerManagement1AtReset: UInt8
        /// FIFO size in bytes: 1024 on the 6050, 512 on the 6500/9250.
        public var fifoCapacity: Int
        /// GYRO_CONFIG FCHOICE_B (bits 1:0) bypasses the DLPF (8 kHz) on the 6500/9250; the 6050 has no such bits.
        public var hasFChoice: Bool
        /// The 6050's accelerometer samples at 1 kHz at most: above that the same accel sample repeats.
        public var accelMaxRateHz: Double?
        /// TEMP_OUT = (T − offset) × counts per °C: 36.53 and 340 on the 6050, 21 and 333.87 on the 6500/9250.
        public var temperatureOffset: Double
        public var temperatureCountsPerDegree: Double

        public static let mpu6050 = Part(whoAmI: 0x68, powerManagement1AtReset: 0x40, fifoCapacity: 1024, hasFChoice: false,
                                         accelMaxRateHz: 1000, temperatureOffset: 36.53, temperatureCountsPerDegree: 340)
        public static let mpu9250 = Part(whoAmI: 0x71, powerManagement1AtReset: 0x01, fifoCapacity: 512, hasFChoice: true,
                                         accelMaxRateHz: nil, temperatureOffset: 21, temperatureCountsPerDegree: 333.87)
        /// The MPU-6500 (and register-compatible clones): the MPU-9250's map without the AK8963.
        public static func mpu6500Family(whoAmI: UInt8) -> Part { var p = mpu9250; p.whoAmI = whoAmI; return p }
    }

    public let part: Part
    public var registers = [UInt8](repeating: 0, count: 128)
    public var whoAmI: UInt8 { part.whoAmI }
    public let clock: VirtualClock
    public var motion: MotionScript
    public var sensor: SensorModel
    /// Die temperature the model reports (°C).
    public var temperature = 25.0
    /// Tests can freeze the data registers (a stuck chip) or power-cycle the chip.
    public var frozen = false
    private var lastSampleIndex: Int64 = -1
    /// The sample FIFO and the last sample the sample clock has produced (InvenSenseFIFOModel.swift).
    public internal(set) var fifo: SimulatedFIFO
    var clockedSampleIndex: Int64 = -1

    public init(part: Part = .mpu9250, clock: VirtualClock, motion: MotionScript, sensor: SensorModel = SensorModel()) {
        self.part = part
        self.clock = clock
        self.motion = motion
        self.sensor = sensor
        fifo = SimulatedFIFO(capacity: part.fifoCapacity)
        powerOnReset()
    }

    /// Every register 0x00 except PWR_MGMT_1 and WHO_AM_I.
    public func powerOnReset() {
        for i in registers.indices { registers[i] = 0 }
        registers[Int(MPU9250Register.powerManagement1)] = part.powerManagement1AtReset
        registers[Int(MPU9250Register.whoAmI)] = part.whoAmI
        lastSampleIndex = -1
        resetFIFOState()
    }

    public var isVisible: Bool { true }
    public var isAsleep: Bool { registers[Int(MPU9250Register.powerManagement1)] & MPU9250Bits.sleep != 0 }
    public var bypassEnabled: Bool {
        registers[Int(MPU9250Register.intPinConfig)] & MPU9250Bits.bypassEnable != 0
            && registers[Int(MPU9250Register.userControl)] & MPU9250Bits.i2cMasterEnable == 0
    }

    /// Output data rate from SMPLRT_DIV when the DLPF is in use (1 kHz internal), else 8 kHz.
    public var sampleRateHz: Double {
        let dlpf = registers[Int(MPU9250Register.config)] & 0x07
        let dlpfOff = dlpf == 0 || dlpf == 7
        // The 6500/9250 apply SMPLRT_DIV only with the DLPF on; the 6050 divides its 8 kHz gyro rate as well.
        if part.hasFChoice && (dlpfOff || registers[Int(MPU9250Register.gyroConfig)] & 0x03 != 0) { return 8000 }
        return (dlpfOff ? 8000 : 1000) / (1 + Double(registers[Int(MPU9250Register.smplrtDiv)]))
    }

    public var gyroRange: GyroRange { GyroRange(rawValue: (registers[Int(MPU9250Register.gyroConfig)] >> 3) & 3)! }
    public var accelRange: AccelRange { AccelRange(rawValue: (registers[Int(MPU9250Register.accelConfig)] >> 3) & 3)! }

    /// Refreshes the data registers if a new sample period has begun.
    private func updateData() {
        if frozen || isAsleep { return }
        let rate = sampleRateHz
        let index = Int64((clock.seconds * rate).rounded(.down))
        if index == lastSampleIndex { return }
        lastSampleIndex = index
        let sampleTime = Double(index) / rate
        let state = motion.state(at: sampleTime)
        let accelTime = part.accelMaxRateHz.map { (sampleTime * $0).rounded(.down) / $0 } ?? sampleTime
        let accel = sensor.accelerometer(accelTime == sampleTime ? state : motion.state(at: accelTime))
        let gyro = sensor.gyroscope(state)
        let accelLSB = accelRange.lsbPerG / Units.standardGravity
        let gyroLSB = gyroRange.lsbPerDegreePerSecond * Units.degreesPerRadian
        let values = [accel.x * accelLSB, accel.y * accelLSB, accel.z * accelLSB, temperatureCounts,
                      gyro.x * gyroLSB, gyro.y * gyroLSB, gyro.z * gyroLSB]
        for (i, v) in values.enumerated() {
            RegisterStorage.storeBigEndian(Int16(clamping: Int(v.rounded())), into: &registers,
                                           at: Int(MPU9250Register.accelXHigh) + 2 * i)
        }
        registers[Int(MPU9250Register.intStatus)] |= 0x01  // INT_STATUS.DATA_RDY_INT
    }

    public func read(register: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        clockSamples()
        if readFIFORegisters(register: register, into: buffer) { return }
        if Int(register) + buffer.count > Int(MPU9250Register.accelXHigh) { updateData() }
        for i in 0..<buffer.count {
            let r = (Int(register) + i) & 0x7F
            buffer[i] = registers[r]
            if r == Int(MPU9250Register.intStatus) { registers[r] = 0 }  // INT_STATUS clears on read
        }
    }

    public func write(register: UInt8, value: UInt8) {
        clockSamples()
        if writeFIFORegister(register: register, value: value) { return }
        switch register {
        case MPU9250Register.whoAmI, MPU9250Register.intStatus:
            return  // read-only
        case MPU9250Register.powerManagement1 where value & MPU9250Bits.deviceReset != 0:
            powerOnReset()  // H_RESET clears itself
        default:
            registers[Int(register & 0x7F)] = value
        }
    }
}

extension InvenSenseModel: InvenSenseFIFOModel {
    var samplingStopped: Bool { frozen || isAsleep }
    var temperatureCounts: Double { (temperature - part.temperatureOffset) * part.temperatureCountsPerDegree }
}
