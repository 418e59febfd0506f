import Geometry
import Hardware
import Sensors
import Simulation
import Testing

/// The simulated MPU-9250 FIFO against the register map (RM-MPU-9250A-00 §4.7, §4.19, §4.29, §4.36–4.37;
/// hardware-facts §1.0): 512 bytes, frames in register order, FIFO_COUNTH latching, overflow handling.
@Suite struct SimulatedFIFOTests {
    /// A level, still head: the accelerometer reads +1 g on z, the gyroscope 0 (noise and bias off).
    static func chip(divider: UInt8 = 4) -> (InvenSenseModel, VirtualClock) {
        let clock = VirtualClock()
        var script = MotionScript(initialHeading: 0)
        script.append(.still(duration: 100))
        var sensor = SensorModel()
        sensor.accelNoise = 0
        sensor.gyroNoise = 0
        sensor.gyroBias = .zero
        let chip = InvenSenseModel(clock: clock, motion: script, sensor: sensor)
        chip.write(register: 0x1A, value: 0x02)     // CONFIG: DLPF 92 Hz → 1 kHz internal rate
        chip.write(register: 0x19, value: divider)  // SMPLRT_DIV: 1 kHz / (1 + 4) = 200 Hz
        chip.write(register: 0x1B, value: 0x08)     // ±500 °/s
        chip.write(register: 0x1C, value: 0x08)     // ±4 g: 8192 LSB/g
        return (chip, clock)
    }

    static func read(_ chip: InvenSenseModel, _ register: UInt8, _ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBufferPointer { chip.read(register: register, into: $0) }
        return bytes
    }

    static func fifoCount(_ chip: InvenSenseModel) -> Int {
        let b = read(chip, 0x72, 2)
        return Int(b[0]) << 8 | Int(b[1])
    }

    static func enable(_ chip: InvenSenseModel, sources: UInt8 = 0x78) {
        chip.write(register: 0x23, value: sources)  // FIFO_EN
        chip.write(register: 0x6A, value: 0x40)     // USER_CTRL.FIFO_EN
    }

    @Test func accelAndGyroFillTwelveBytesPerSample() {
        let (chip, clock) = Self.chip()
        clock.advance(seconds: 0.0123)  // samples taken before the FIFO is on do not enter it
        Self.enable(chip)
        #expect(Self.fifoCount(chip) == 0)
        clock.sleep(until: 60_000_000)  // samples at 15, 20, ..., 60 ms: ten of them
        #expect(Self.fifoCount(chip) == 10 * 12)
    }

    @Test func framesHoldAccelThenGyroBigEndian() {
        let (chip, clock) = Self.chip()
        Self.enable(chip)
        clock.advance(seconds: 0.005)
        #expect(Self.fifoCount(chip) == 12)
        // AX AY AZ GX GY GZ: +1 g on z is 8192 = 0x2000 at ±4 g.
        #expect(Self.read(chip, 0x74, 12) == [0, 0, 0, 0, 0x20, 0x00, 0, 0, 0, 0, 0, 0])
        #expect(Self.fifoCount(chip) == 0)
    }

    @Test func temperatureSitsBetweenAccelAndGyro() {
        let (chip, clock) = Self.chip()
        Self.enable(chip, sources: 0xF8)  // TEMP + gyro + accel
        clock.advance(seconds: 0.005)
        #expect(Self.fifoCount(chip) == 14)
        // 25 °C = (25 − 21) × 333.87 LSB = 1335 = 0x0537 (RM9250 §4.23).
        #expect(Self.read(chip, 0x74, 14) == [0, 0, 0, 0, 0x20, 0x00, 0x05, 0x37, 0, 0, 0, 0, 0, 0])
    }

    @Test func overflowDropsTheOldestBytesAndRaisesTheFlag() {
        let (chip, clock) = Self.chip()
        Self.enable(chip)
        clock.advance(seconds: 0.25)  // 50 samples = 600 bytes into 512
        #expect(Self.fifoCount(chip) == 512)
        #expect(InvenSenseFIFO(capacity: 512, sampleRateDivider: 4, accelRange: .g4, gyroRange: .dps500).countShowsOverflow(512))
        #expect(Self.read(chip, 0x3A, 1)[0] & 0x10 != 0)  // INT_STATUS.FIFO_OFLOW_INT
        #expect(Self.read(chip, 0x3A, 1)[0] & 0x10 == 0)  // cleared by reading it
        chip.write(register: 0x6A, value: 0x44)  // FIFO_RST (+ FIFO_EN)
        #expect(Self.fifoCount(chip) == 0)
        #expect(Self.read(chip, 0x6A, 1)[0] == 0x40)  // the reset bit clears itself
        clock.advance(seconds: 0.005)
        #expect(Self.fifoCount(chip) == 12)  // and sampling goes on
    }

    @Test func fifoModeOneKeepsTheOldDataInstead() {
        let (chip, clock) = Self.chip()
        chip.write(register: 0x1A, value: 0x42)  // CONFIG.FIFO_MODE = 1, DLPF 2
        Self.enable(chip)
        clock.advance(seconds: 0.25)
        #expect(Self.fifoCount(chip) == 42 * 12)  // whole frames only: new ones were refused
        #expect(Self.read(chip, 0x3A, 1)[0] & 0x10 != 0)
    }

    @Test func readingCountHighLatchesTheLowByte() {
        let (chip, clock) = Self.chip()
        Self.enable(chip)
        clock.advance(seconds: 0.11)  // 22 samples = 264 = 0x0108 bytes
        #expect(Self.read(chip, 0x72, 1) == [0x01])
        clock.advance(seconds: 0.05)  // ten more samples arrive (384 = 0x0180) between the two reads
        #expect(Self.read(chip, 0x73, 1) == [0x08])  // still the latched 264
        #expect(Self.fifoCount(chip) == 384)
    }

    @Test func anEmptyFIFORepeatsTheLastByte() {
        let (chip, clock) = Self.chip()
        Self.enable(chip, sources: 0x88)  // ACCEL + TEMP: 8-byte frames ending in the temperature's low byte
        clock.advance(seconds: 0.005)
        #expect(Self.read(chip, 0x74, 8) == [0, 0, 0, 0, 0x20, 0x00, 0x05, 0x37])
        #expect(Self.read(chip, 0x74, 3) == [0x37, 0x37, 0x37])
        #expect(Self.fifoCount(chip) == 0)
    }

    @Test func dataReadyIsSetOncePerSample() {
        let (chip, clock) = Self.chip()
        _ = Self.read(chip, 0x3A, 1)
        clock.advance(seconds: 0.001)
        #expect(Self.read(chip, 0x3A, 1)[0] & 0x01 == 0)  // no new sample within 5 ms
        clock.advance(seconds: 0.004)
        #expect(Self.read(chip, 0x3A, 1)[0] & 0x01 != 0)
        #expect(Self.read(chip, 0x3A, 1)[0] & 0x01 == 0)  // cleared by the read
    }
}
