import Geometry
import Hardware
import Sensors

/// The sample clock and FIFO of the simulated MPU-family chips (MPU-9250/6500 model, MPU-6050 model).
/// Sample k is taken at exactly k × period on the simulation clock (period = (1 + SMPLRT_DIV) ms with the
/// DLPF on, else 125 µs × (1 + SMPLRT_DIV)). Each register access first catches up on the samples due since
/// the last one: it sets INT_STATUS.RAW_DATA_RDY and, with USER_CTRL.FIFO_EN and FIFO_EN sources on, pushes
/// each sample's frame (sources in register order 0x3B→0x48: ACCEL 6 bytes, TEMP 2, XG 2, YG 2, ZG 2),
/// raising INT_STATUS.FIFO_OFLOW when data is dropped. Auxiliary-sensor sources (SLV0–2) are not modelled.
protocol InvenSenseFIFOModel: AnyObject {
    var registers: [UInt8] { get set }
    var clock: VirtualClock { get }
    var motion: MotionScript { get }
    var sensor: SensorModel { get set }
    var sampleRateHz: Double { get }
    var accelRange: AccelRange { get }
    var gyroRange: GyroRange { get }
    var fifo: SimulatedFIFO { get set }
    /// Index of the last sample the sample clock produced (−1: count from the next access).
    var clockedSampleIndex: Int64 { get set }
    /// True while the chip takes no samples (asleep, or frozen by a test).
    var samplingStopped: Bool { get }
    /// TEMP_OUT as the chip would report its die temperature.
    var temperatureCounts: Double { get }
}

extension InvenSenseFIFOModel {
    /// Sample period in nanoseconds (integer, so sample instants are exact).
    var samplePeriodNanoseconds: Nanoseconds { Nanoseconds((1e9 / sampleRateHz).rounded()) }

    var fifoEnabled: Bool { registers[Int(MPU9250Register.userControl)] & InvenSenseFIFO.userControlEnable != 0 }
    var fifoSources: UInt8 { registers[Int(MPU9250Register.fifoEnable)] & 0xF8 }
    var fifoDropsNewWhenFull: Bool { registers[Int(MPU9250Register.config)] & 0x40 != 0 }

    /// Bytes one sample takes in the FIFO with the current FIFO_EN sources.
    var fifoFrameSize: Int {
        let s = fifoSources
        return (s & 0x08 != 0 ? 6 : 0) + (s & 0x80 != 0 ? 2 : 0) + (s & 0x40 != 0 ? 2 : 0)
            + (s & 0x20 != 0 ? 2 : 0) + (s & 0x10 != 0 ? 2 : 0)
    }

    /// Catches up on the samples due since the last register access.
    func clockSamples() {
        if samplingStopped { return }
        let index = clock.now() / samplePeriodNanoseconds
        if clockedSampleIndex < 0 || index < clockedSampleIndex {
            clockedSampleIndex = index  // first access, or the rate changed: start counting from here
            return
        }
        if index == clockedSampleIndex { return }
        registers[Int(MPU9250Register.intStatus)] |= InvenSenseFIFO.rawDataReady
        let frame = fifoFrameSize
        if fifoEnabled && frame > 0 {
            // Only the last capacity/frame + 1 samples can still be in the FIFO; older ones would be dropped.
            let keep = Int64(fifo.capacity / frame + 1)
            var first = clockedSampleIndex + 1
            if index - first + 1 > keep {
                registers[Int(MPU9250Register.intStatus)] |= InvenSenseFIFO.overflow
                first = index - keep + 1
            }
            for k in first...index { pushFrame(sampleIndex: k) }
        }
        clockedSampleIndex = index
    }

    private func pushFrame(sampleIndex k: Int64) {
        let t = Double(k * samplePeriodNanoseconds) * 1e-9
        let state = motion.state(at: t)
        let accel = sensor.accelerometer(state) * (accelRange.lsbPerG / Units.standardGravity)
        let gyro = sensor.gyroscope(state) * (gyroRange.lsbPerDegreePerSecond * Units.degreesPerRadian)
        let temperature = temperatureCounts
        let sources = fifoSources
        var frame = (UInt64(0), UInt64(0))  // up to 14 bytes
        var n = 0
        withUnsafeMutableBytes(of: &frame) { b in
            func put(_ value: Double) {
                let u = UInt16(bitPattern: Int16(clamping: Int(value.rounded())))
                b[n] = UInt8(u >> 8)
                b[n + 1] = UInt8(u & 0xFF)
                n += 2
            }
            if sources & 0x08 != 0 { put(accel.x); put(accel.y); put(accel.z) }
            if sources & 0x80 != 0 { put(temperature) }
            if sources & 0x40 != 0 { put(gyro.x) }
            if sources & 0x20 != 0 { put(gyro.y) }
            if sources & 0x10 != 0 { put(gyro.z) }
        }
        let dropped = withUnsafeBytes(of: &frame) { b in
            fifo.push(UnsafeRawBufferPointer(rebasing: b[0..<n]), dropNewWhenFull: fifoDropsNewWhenFull)
        }
        if dropped { registers[Int(MPU9250Register.intStatus)] |= InvenSenseFIFO.overflow }
    }

    /// Reads that start at FIFO_COUNTH, FIFO_COUNTL or FIFO_R_W. FIFO_R_W does not auto-increment: every
    /// byte of a burst pops the FIFO. Returns false for any other register.
    func readFIFORegisters(register: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        guard register >= MPU9250Register.fifoCountHigh && register <= MPU9250Register.fifoReadWrite else { return false }
        var r = register
        for i in 0..<buffer.count {
            switch r {
            case MPU9250Register.fifoCountHigh:
                buffer[i] = fifo.readCountHigh()
                r += 1
            case MPU9250Register.fifoCountHigh + 1:
                buffer[i] = fifo.readCountLow()
                r += 1
            default:
                buffer[i] = fifo.pop()
            }
        }
        return true
    }

    /// Writes with FIFO side effects. USER_CTRL: FIFO_RST (bit 2) empties the FIFO; the reset bits 2..0 clear
    /// themselves. FIFO_COUNT and FIFO_R_W take no writes here. A new rate restarts the sample count.
    /// Returns false for registers without FIFO meaning.
    func writeFIFORegister(register: UInt8, value: UInt8) -> Bool {
        switch register {
        case MPU9250Register.userControl:
            if value & InvenSenseFIFO.userControlReset != 0 { fifo.reset() }
            registers[Int(register)] = value & ~0x07
            return true
        case MPU9250Register.fifoCountHigh, MPU9250Register.fifoCountHigh + 1, MPU9250Register.fifoReadWrite:
            return true
        case MPU9250Register.smplrtDiv, MPU9250Register.config, MPU9250Register.gyroConfig:
            registers[Int(register)] = value
            clockedSampleIndex = -1
            return true
        default:
            return false
        }
    }

    /// Back to an empty FIFO and a fresh sample count (power-on reset).
    func resetFIFOState() {
        fifo.reset()
        clockedSampleIndex = -1
    }
}

