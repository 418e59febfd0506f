#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Hardware
import Sensors
import Simulation
import Testing

/// The FIFO readout against the simulated chips, whose sample k is taken at exactly k × period on the
/// simulation clock. Truth for the data is the motion script's analytic angular rate.
@Suite struct InvenSenseFIFOTests {
    /// Still for 0.2 s, then a 90° turn in 1 s and back: the yaw rate is ∓(90° · π / 2 s) · sin(π u / 1 s).
    static func turningScript() -> MotionScript {
        var s = MotionScript(initialHeading: 0)
        s.append(.still(duration: 0.2))
        s.append(.turn(toHeading: 90, duration: 1))
        s.append(.turn(toHeading: 0, duration: 1))
        s.append(.still(duration: 10))
        return s
    }

    /// True z rate (rad/s) at time t of `turningScript` (head level, so body z is up; heading clockwise
    /// from north is −yaw).
    static func trueYawRate(_ t: Double) -> Double {
        let degreesPerSecond: Double
        if t < 0.2 || t >= 2.2 {
            degreesPerSecond = 0
        } else if t < 1.2 {
            degreesPerSecond = -90 * Double.pi / 2 * sin(Double.pi * (t - 0.2))
        } else {
            degreesPerSecond = 90 * Double.pi / 2 * sin(Double.pi * (t - 1.2))
        }
        return degreesPerSecond * Double.pi / 180
    }

    /// An initialised driver on a breakout with noise-free sensors, and its FIFO readout.
    struct Rig {
        var breakout: SimulatedBreakout
        var imu: IMUDevice<SimulatedI2CBus>
        var fifo: InvenSenseFIFO
        var clock = FifoSampleClock(period: 1, firstSampleAt: 0)

        init(_ part: SimulatedIMUPart, rateHz: Double) throws {
            var sensor = SensorModel()
            sensor.gyroNoise = 0
            sensor.accelNoise = 0
            sensor.gyroBias = .zero
            breakout = SimulatedBreakout(imu: part, motion: InvenSenseFIFOTests.turningScript(), sensor: sensor)
            let kind: IMUKind = part == .mpu6050 ? .mpu6050 : part == .mpu6500 ? .mpu6500 : .mpu9250
            var settings = IMUSettings()
            settings.sampleRateHz = rateHz
            imu = IMUDevice(kind: kind, bus: breakout.bus, address: 0x68, settings: settings)
            let b = breakout
            try imu.initialize(delay: { b.clock.advance(seconds: $0) })
            fifo = try #require(imu.fifo)
        }

        var now: Nanoseconds { breakout.clock.now() }

        mutating func start() throws {
            let (f, b) = (fifo, breakout)
            let first = try imu.withBus { (bus, address) throws(SensorError) in
                try f.start(bus: &bus, address: address, now: { b.clock.now() }, sleep: { b.clock.sleep(until: $0) })
            }
            clock = FifoSampleClock(period: fifo.samplePeriod, firstSampleAt: first)
        }

        mutating func count() throws -> Int {
            let f = fifo
            return try imu.withBus { (bus, address) throws(SensorError) in try f.readCount(bus: &bus, address: address) }
        }

        /// Drains everything waiting; returns (stamp, sample) pairs.
        mutating func drain() throws -> [(Nanoseconds, ImuSample)] {
            let before = now
            let bytes = try count()
            #expect(!fifo.countShowsOverflow(bytes))
            #expect(bytes % InvenSenseFIFO.frameSize == 0)
            clock.observe(available: bytes / 12, before: before, after: now)
            var out: [(Nanoseconds, ImuSample)] = []
            var left = bytes / 12
            let f = fifo
            while left > 0 {
                let n = left
                let batch = try imu.withBus { (bus, address) throws(SensorError) in try f.readSamples(bus: &bus, address: address, frames: n) }
                for i in 0..<batch.count { out.append((clock.stampNext(), batch[i])) }
                left -= batch.count
            }
            return out
        }

        mutating func status() throws -> UInt8 {
            let f = fifo
            return try imu.withBus { (bus, address) throws(SensorError) in try f.readStatus(bus: &bus, address: address) }
        }

        mutating func reset() throws {
            let f = fifo
            try imu.withBus { (bus, address) throws(SensorError) in try f.reset(bus: &bus, address: address) }
        }
    }

    /// One LSB at ±500 °/s is 1/65.5 °/s; a sample one period off would be off by ~145 LSB at 200 Hz here.
    static let rateTolerance = 5 / 65.5 * Double.pi / 180

    @Test(arguments: [SimulatedIMUPart.mpu9250, .mpu6500, .mpu6050])
    func everySampleArrivesOnceWithItsSensorTime(part: SimulatedIMUPart) throws {
        var rig = try Rig(part, rateHz: 200)
        let period = rig.fifo.samplePeriod
        #expect(period == 5_000_000)
        try rig.start()
        let reset = rig.now
        var random = SeededRandom(seed: 3)
        var all: [(Nanoseconds, ImuSample)] = []
        // Wake-ups every 1...14 ms at random: host jitter of up to almost three sample periods.
        while rig.now < 2_500_000_000 {
            rig.breakout.clock.advance(seconds: 0.001 + 0.013 * random.uniform())
            all += try rig.drain()
        }
        // Count: exactly the samples the chip took after the FIFO reset (k × 5 ms in (reset, now]).
        #expect(Int64(all.count) == rig.now / period - reset / period)
        // Timing: each stamp is within the start-up poll resolution of the instant the chip sampled it...
        let firstTrue = (reset / period + 1) * period
        var worstOffset: Nanoseconds = 0
        var worstRateError = 0.0
        for (k, (stamp, sample)) in all.enumerated() {
            worstOffset = max(worstOffset, abs(stamp - (firstTrue + Nanoseconds(k) * period)))
            // ...and the data are the motion at that stamp (a sample off by one would be ~145 LSB away).
            worstRateError = max(worstRateError, abs(sample.gyro.z - Self.trueYawRate(Double(stamp) * 1e-9)))
        }
        #expect(worstOffset <= max(20_000, period / 32) / 2)
        #expect(worstRateError < Self.rateTolerance)
        // ...and spacing is the sensor's period, never the host's wake-up pattern.
        let gaps = zip(all, all.dropFirst()).map { $1.0 - $0.0 }
        #expect(gaps.filter { $0 != period }.count <= Int(rig.clock.adjustments))
        // A few sub-poll-interval refinements of the start-up phase estimate, then none: no wandering.
        #expect(rig.clock.adjustments <= 8)
    }

    @Test(arguments: [(SimulatedIMUPart.mpu9250, 512), (.mpu6500, 512), (.mpu6050, 1024)])
    func overflowIsDetectedAndRecoveredByAReset(part: SimulatedIMUPart, capacity: Int) throws {
        var rig = try Rig(part, rateHz: 1000)
        #expect(rig.fifo.capacity == capacity)
        let period = rig.fifo.samplePeriod
        #expect(period == 1_000_000)
        try rig.start()
        for _ in 0..<15 {  // 0.3 s drained every 20 ms
            rig.breakout.clock.advance(seconds: 0.02)
            _ = try rig.drain()
        }
        // The loop stalls for 100 ms: 100 samples × 12 bytes fit in neither FIFO.
        rig.breakout.clock.advance(seconds: 0.1)
        let bytes = try rig.count()
        #expect(bytes == capacity)
        #expect(rig.fifo.countShowsOverflow(bytes))
        #expect(try rig.status() & InvenSenseFIFO.overflow != 0)
        try rig.reset()
        rig.clock.restartAfterReset(at: rig.now)
        #expect(rig.clock.samplesLost == 100)
        #expect(try rig.count() == 0)
        #expect(try rig.status() & InvenSenseFIFO.overflow == 0)
        // After the reset the time line continues on the sensor's grid and the data match it again.
        var after: [(Nanoseconds, ImuSample)] = []
        for _ in 0..<25 {  // 0.5 s, drained every 20 ms (20 samples: well inside either FIFO)
            rig.breakout.clock.advance(seconds: 0.02)
            after += try rig.drain()
        }
        #expect(after.count == 500)
        for (stamp, sample) in after {
            #expect(abs(stamp - (stamp + period / 2) / period * period) <= max(20_000, period / 32) / 2)
            #expect(abs(sample.gyro.z - Self.trueYawRate(Double(stamp) * 1e-9)) < Self.rateTolerance)
        }
    }

    @Test func overflowThresholdIsTheLastWholeFrame() {
        let f = InvenSenseFIFO(capacity: 512, sampleRateDivider: 4, accelRange: .g4, gyroRange: .dps500)
        #expect(!f.countShowsOverflow(504))  // 42 whole frames
        #expect(f.countShowsOverflow(505))
        #expect(f.countShowsOverflow(512))
        let f6050 = InvenSenseFIFO(capacity: 1024, sampleRateDivider: 4, accelRange: .g4, gyroRange: .dps500)
        #expect(!f6050.countShowsOverflow(1020))  // 85 whole frames
        #expect(f6050.countShowsOverflow(1024))
    }
}
