import Geometry
import Sensors

/// Register-level model of an MPU-9250 (WHO_AM_I 0x71) or MPU-9255 (0x73): reset and sleep via PWR_MGMT_1,
/// full-scale ranges from GYRO/ACCEL_CONFIG, big-endian data at 0x3B..0x48 sampled at the configured rate,
/// and the bypass switch (INT_PIN_CFG.BYPASS_EN with USER_CTRL.I2C_MST_EN clear) that puts the AK8963 on the bus.
public final class MPU9250Model: SimulatedChip {
    public var registers = [UInt8](repeating: 0, count: 128)
    public let whoAmI: UInt8
    public let clock: VirtualClock
    public var motion: MotionScript
    public var sensor: SensorModel
    /// Tests can freeze the data registers (a stuck chip) or power-cycle the chip.
    public var frozen = false
    private var lastSampleIndex: Int64 = -1
    /// The sample FIFO (512 bytes) and the last sample the sample clock has produced (InvenSenseFIFOModel.swift).
    public internal(set) var fifo = SimulatedFIFO(capacity: 512)
    var clockedSampleIndex: Int64 = -1

    public init(whoAmI: UInt8 = 0x71, clock: VirtualClock, motion: MotionScript, sensor: SensorModel = SensorModel()) {
        self.whoAmI = whoAmI
        self.clock = clock
        self.motion = motion
        self.sensor = sensor
        powerOnReset()
    }

    /// Register reset values (RM-MPU-9250A-00: all 0x00 but PWR_MGMT_1 = 0x01 and WHO_AM_I).
    public func powerOnReset() {
        for i in registers.indices { registers[i] = 0 }
        registers[Int(MPU9250Register.powerManagement1)] = 0x01
        registers[Int(MPU9250Register.whoAmI)] = whoAmI
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
        let fchoiceB = registers[Int(MPU9250Register.gyroConfig)] & 0x03
        if fchoiceB != 0 || dlpf == 0 || dlpf == 7 { return 8000 }
        return 1000 / (1 + Double(registers[Int(MPU9250Register.smplrtDiv)]))
    }

    public var gyroRange: GyroRange { GyroRange(rawValue: (registers[Int(MPU9250Register.gyroConfig)] >> 3) & 3)! }
    public var accelRange: AccelRange { AccelRange(rawValue: (registers[Int(MPU9250Register.accelConfig)] >> 3) & 3)! }

    /// Refreshes the data registers if a new sample period has begun.
    private func updateData() {
        if frozen || isAsleep { return }
        let t = clock.seconds
        let index = Int64((t * sampleRateHz).rounded(.down))
        if index == lastSampleIndex { return }
        lastSampleIndex = index
        let sampleTime = Double(index) / sampleRateHz
        let state = motion.state(at: sampleTime)
        let accel = sensor.accelerometer(state)
        let gyro = sensor.gyroscope(state)
        let accelLSB = accelRange.lsbPerG / Units.standardGravity
        let gyroLSB = gyroRange.lsbPerDegreePerSecond * Units.degreesPerRadian
        func store(_ register: UInt8, _ value: Double) {
            let v = Int16(clamping: Int(value.rounded()))
            let u = UInt16(bitPattern: v)
            registers[Int(register)] = UInt8(u >> 8)
            registers[Int(register) + 1] = UInt8(u & 0xFF)
        }
        store(0x3B, accel.x * accelLSB); store(0x3D, accel.y * accelLSB); store(0x3F, accel.z * accelLSB)
        store(0x41, (25 - 21) * 333.87)  // 25 °C
        store(0x43, gyro.x * gyroLSB); store(0x45, gyro.y * gyroLSB); store(0x47, gyro.z * gyroLSB)
        registers[Int(MPU9250Register.intStatus)] |= 0x01
    }

    public func read(register: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        clockSamples()
        if readFIFORegisters(register: register, into: buffer) { return }
        if Int(register) + buffer.count > MPU9250Register.accelXHigh.asInt { updateData() }
        for i in 0..<buffer.count {
            let r = (Int(register) + i) & 0x7F
            buffer[i] = registers[r]
            if r == Int(MPU9250Register.intStatus) { registers[r] = 0 }  // INT_STATUS clears on read
        }
    }

    public func write(register: UInt8, value: UInt8) {
        clockSamples()
        if writeFIFORegister(register: register, value: value) { return }
        let r = Int(register & 0x7F)
        switch register {
        case MPU9250Register.whoAmI, MPU9250Register.intStatus:
            return  // read-only
        case MPU9250Register.powerManagement1 where value & MPU9250Bits.deviceReset != 0:
            powerOnReset()  // H_RESET clears itself
        default:
            registers[r] = value
        }
    }
}

extension UInt8 {
    var asInt: Int { Int(self) }
}
