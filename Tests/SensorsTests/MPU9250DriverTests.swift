import Geometry
import Hardware
import Simulation
import Testing
@testable import Sensors

/// The driver against the register-level simulated MPU-9250 + AK8963. Expected register values are written
/// as literal datasheet numbers (RM-MPU-9250A-00, AK8963 MS1356-E-02), not taken from the driver's constants.
@Suite struct MPU9250DriverTests {
    func makeBoard(_ script: MotionScript = MotionScript(), sensor: SensorModel = SensorModel(), whoAmI: UInt8 = 0x71) -> SimulatedBoard {
        var s = script
        if s.segments.isEmpty { s.append(.still(duration: 5)) }
        return SimulatedBoard(motion: s, sensor: sensor, whoAmI: whoAmI)
    }

    func initialized(_ board: SimulatedBoard) throws -> MPU9250<SimulatedI2CBus> {
        var driver = MPU9250(bus: board.bus)
        try driver.initialize(delay: { board.clock.advance(seconds: $0) })
        return driver
    }

    /// Output rate = 1 kHz / (1 + SMPLRT_DIV) (MPU-9250 register map §4.4): the divider must never make the
    /// chip slower than the rate asked for, or the loop reads the same sample twice.
    @Test func sampleRateIsNeverBelowTheRequest() {
        for hz in [10.0, 100, 180, 199, 200, 250, 333, 450, 700, 1000] {
            var c = MPU9250<SimulatedI2CBus>.Configuration()
            c.settings.sampleRateHz = hz
            #expect(1000 / (1 + Double(c.sampleRateDivider)) >= hz, "\(hz) Hz")
        }
    }

    @Test func configurationWritesMatchTheDatasheet() throws {
        let board = makeBoard()
        let driver = try initialized(board)
        let writes = board.bus.writes.map { [$0.address, $0.register, $0.value] }
        func index(_ w: [UInt8]) -> Int? { writes.firstIndex(of: w) }
        // Reset (PWR_MGMT_1 0x6B = 0x80 H_RESET) before waking with the PLL clock (0x01), all axes on.
        let reset = try #require(index([0x68, 0x6B, 0x80]))
        let wake = try #require(index([0x68, 0x6B, 0x01]))
        #expect(reset < wake)
        #expect(index([0x68, 0x6C, 0x00]) != nil)
        #expect(index([0x68, 0x1B, 0x08]) != nil)  // GYRO_CONFIG: FS_SEL 1 = ±500 °/s, FCHOICE_B 00
        #expect(index([0x68, 0x1C, 0x08]) != nil)  // ACCEL_CONFIG: AFS_SEL 1 = ±4 g
        #expect(index([0x68, 0x19, 4]) != nil)     // SMPLRT_DIV 4: 1 kHz / 5 = 200 Hz
        #expect(index([0x68, 0x37, 0x02]) != nil)  // INT_PIN_CFG BYPASS_EN
        #expect(board.imu.sampleRateHz == 200)
        #expect(driver.chipName == "MPU-9250")
        // With the bypass on, the AK8963 inside the package answers on the host bus (its own driver's tests
        // check its set-up in AK8963DriverTests).
        #expect(board.magnetometer.isVisible)
    }

    @Test func readingsMatchTheMotionWithinQuantisation() throws {
        var sensor = SensorModel()
        sensor.gyroNoise = 0; sensor.accelNoise = 0; sensor.magNoise = 0
        sensor.gyroBias = .zero
        var script = MotionScript(initialHeading: 30)
        script.append(.still(duration: 1))
        script.append(.turn(toHeading: 120, duration: 2))
        let board = makeBoard(script, sensor: sensor)
        var driver = try initialized(board)
        for step in 0..<40 {
            board.clock.advance(seconds: 0.05 + Double(step % 3) * 0.001)
            let t = (board.clock.seconds * 200).rounded(.down) / 200
            let truth = script.state(at: t)
            let sample = try driver.readIMU()
            let expectedAccel = truth.attitude.inverseRotate(Vector3(0, 0, 9.80665)) + truth.attitude.inverseRotate(truth.linearAcceleration)
            // One LSB: 4 g / 32768 ≈ 0.0012 m/s²; 500 °/s / 32768 ≈ 0.00027 rad/s.
            #expect((sample.accel - expectedAccel).length < 2 * 9.80665 / 8192)
            #expect((sample.gyro - truth.angularRate).length < 2 * (Double.pi / 180) / 65.5)
            #expect(abs(sample.temperature - 25) < 0.01)
        }
        // Magnetometer behind the bypass: continuous 100 Hz; earth field in the MPU frame within
        // 0.15 µT·ASA quantisation.
        var ak = AK8963(bus: board.bus)
        try ak.initialize(delay: { board.clock.advance(seconds: $0) })
        board.clock.advance(seconds: 0.02)
        let mag = try #require(try ak.read())
        let t = (board.clock.seconds * 100).rounded(.down) / 100
        let expected = script.state(at: t).attitude.inverseRotate(Vector3(0, 20, -45))
        #expect((mag.field - expected).length < 0.5)
        // The ST2 read released the latch; nothing new until the next 10 ms measurement.
        #expect(try ak.read() == nil)
    }

    @Test func wrongWhoAmINamesWhatWasFound() throws {
        let board = makeBoard(whoAmI: 0x68)
        var driver = MPU9250(bus: board.bus)
        do {
            try driver.initialize(delay: { _ in })
            Issue.record("a chip answering 0x68 must not be taken for an MPU-9250")
        } catch let e {
            #expect(e == .unexpectedIdentity(bus: "simulated bus", address: 0x68, register: 0x75, found: 0x68,
                                             expected: "0x71 (MPU-9250) or 0x73 (MPU-9255)"))
            #expect(e.description.contains("0x68"))
        }
    }

    @Test func nothingAtTheAddressIsANack() {
        let board = makeBoard()
        var driver = MPU9250(bus: board.bus, address: 0x69)
        #expect(throws: SensorError.bus(.noAcknowledge(address: 0x69))) { try driver.initialize(delay: { _ in }) }
    }

    @Test func mpu9255IsAccepted() throws {
        let driver = try initialized(makeBoard(whoAmI: 0x73))
        #expect(driver.chipName == "MPU-9255")
    }

    @Test func aChipThatLostPowerIsNoticed() throws {
        let board = makeBoard()
        var driver = try initialized(board)
        #expect(try driver.configurationIntact())
        board.imu.powerOnReset()
        #expect(try driver.configurationIntact() == false)
    }

    /// The MPU-9250 is an MPU-6500 die, so it gets the 6500's full read-back: a chip put to sleep
    /// (PWR_MGMT_1 0x6B = 0x41, SLEEP bit 6) or with ACCEL_CONFIG 0x1C rewritten to ±16 g (0x18) is no
    /// longer the configured chip, though INT_PIN_CFG and GYRO_CONFIG still hold.
    @Test func aChipPutToSleepOrGivenAnotherAccelRangeIsNoticed() throws {
        for (register, value): (UInt8, UInt8) in [(0x6B, 0x41), (0x1C, 0x18)] {
            let board = makeBoard()
            var driver = try initialized(board)
            #expect(try driver.configurationIntact())
            try board.bus.writeRegister(address: 0x68, register: register, value: value)
            #expect(try driver.configurationIntact() == false, "register \(register)")
        }
    }
}
