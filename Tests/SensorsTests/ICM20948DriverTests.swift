import Geometry
import Hardware
import Simulation
import Testing
@testable import Sensors

/// ICM-20948 + AK09916 drivers against their twins (TDK DS-000189 rev 1.3; AKM 015007392-E-02).
@Suite struct ICM20948DriverTests {
    func ready() throws -> (SimulatedBreakout, ICM20948<SimulatedI2CBus>) {
        let b = ChipTest.breakout(.icm20948)
        var d = ICM20948(bus: b.bus)
        try d.initialize(delay: { b.clock.advance(seconds: $0) })
        return (b, d)
    }

    @Test func configurationWritesMatchTheDatasheet() throws {
        let (b, d) = try ready()
        let w = ChipTest.writes(b.bus, to: 0x68)
        #expect(w.first == [0x7F, 0x00])  // REG_BANK_SEL bank 0 before reading WHO_AM_I
        let reset = try #require(w.firstIndex(of: [0x06, 0x80]))  // PWR_MGMT_1 DEVICE_RESET
        let wake = try #require(w.firstIndex(of: [0x06, 0x01]))   // SLEEP off, CLKSEL 1
        #expect(reset < wake)
        #expect(w.contains([0x07, 0x00]))  // PWR_MGMT_2: accel and gyro on
        // Bank 2 holds the sensor configuration: every write between selecting bank 2 (0x20) and bank 0 again.
        let bank2 = try #require(w.firstIndex(of: [0x7F, 0x20]))
        let back = try #require(w[bank2...].firstIndex(of: [0x7F, 0x00]))
        let inBank2 = Array(w[(bank2 + 1)..<back])
        #expect(inBank2.contains([0x00, 4]))     // GYRO_SMPLRT_DIV 4: 1125/5 = 225 Hz
        #expect(inBank2.contains([0x01, 0x1B]))  // GYRO_CONFIG_1: DLPFCFG 3, FS_SEL 1 (±500 °/s), FCHOICE 1
        #expect(inBank2.contains([0x10, 0x00]) && inBank2.contains([0x11, 4]))  // ACCEL_SMPLRT_DIV 4
        #expect(inBank2.contains([0x14, 0x1B]))  // ACCEL_CONFIG: DLPFCFG 3, FS_SEL 1 (±4 g), FCHOICE 1
        // Back in bank 0: I2C master off, bypass on.
        let after = Array(w[back...])
        #expect(after.contains([0x03, 0x00]) && after.contains([0x0F, 0x02]))
        #expect(b.icm20948!.sampleRateHz == 225)
        #expect(b.icm20948!.bank == 0)
        #expect(d.chipName == "ICM-20948")
    }

    @Test func readsItsOwnDataOrder() throws {
        var (b, d) = try ready()
        for _ in 0..<20 {
            b.clock.advance(seconds: 0.083)
            let truth = ChipTest.truth(b.motion, at: (b.clock.seconds * 225).rounded(.down) / 225)
            let s = try d.readIMU()
            #expect((s.accel - truth.accel).length < 2 * ChipTest.gravity / 8192)
            #expect((s.gyro - truth.gyro).length < 2 * (Double.pi / 180) / 65.5)
            #expect(abs(s.temperature - 25) < 0.005)
        }
        // Gyro follows accel at 0x33, temperature comes last at 0x39: (25 − 21) × 333.87 ≈ 1335 = 0x0537.
        #expect(try ChipTest.readBytes(b.bus, 0x68, 0x39, 2) == [0x05, 0x37])
    }

    @Test func anMPUIsNotAnICM() throws {
        let b = ChipTest.breakout(.mpu9250)
        var d = ICM20948(bus: b.bus)
        #expect(throws: SensorError.self) { try d.initialize(delay: { _ in }) }
    }

    @Test func powerLossIsNoticed() throws {
        var (b, d) = try ready()
        #expect(try d.configurationIntact())
        b.icm20948!.powerOnReset()  // back to PWR_MGMT_1 0x41, asleep
        #expect(try d.configurationIntact() == false)
        try d.initialize(delay: { _ in }, reset: false)
        #expect(try d.configurationIntact())
        // Another bank left selected is also "not intact": the data block would read bank-2 registers.
        try b.bus.writeRegister(address: 0x68, register: 0x7F, value: 0x20)
        #expect(try d.configurationIntact() == false)
    }

    @Test func ak09916WritesAndAxes() throws {
        let (b, _) = try ready()
        var ak = AK09916(bus: b.bus)
        try ak.initialize(delay: { b.clock.advance(seconds: $0) })
        // CNTL3 soft reset, CNTL2 power-down, then continuous mode 4 = 100 Hz (0x08).
        #expect(ChipTest.writes(b.bus, to: 0x0C) == [[0x32, 0x01], [0x31, 0x00], [0x31, 0x08]])
        var checked = 0
        for _ in 0..<20 {
            b.clock.advance(seconds: 0.041)
            guard let m = try ak.read() else { continue }
            let truth = ChipTest.truth(b.motion, at: (b.clock.seconds * 100).rounded(.down) / 100).field
            #expect((m.field - truth).length < 0.3)
            checked += 1
        }
        #expect(checked > 15)
        // Die registers hold (ICM x, −ICM y, −ICM z) at 0.15 µT/LSB, little-endian from 0x11.
        b.clock.advance(seconds: 0.02)
        let raw = try ChipTest.readBytes(b.bus, 0x0C, 0x10, 9)
        let truth = ChipTest.truth(b.motion, at: (b.clock.seconds * 100).rounded(.down) / 100).field
        func le(_ i: Int) -> Double { Double(Int16(bitPattern: UInt16(raw[i + 1]) << 8 | UInt16(raw[i]))) * 0.15 }
        #expect(abs(le(1) - truth.x) < 0.1 && abs(le(3) + truth.y) < 0.1 && abs(le(5) + truth.z) < 0.1)
    }

    @Test func ak09916IdentityIsBothBytes() throws {
        let (b, _) = try ready()
        #expect(try ChipTest.readBytes(b.bus, 0x0C, 0x00, 2) == [0x48, 0x09])
        b.ak09916!.registers[0x01] = 0x05  // some other AKM part
        var ak = AK09916(bus: b.bus)
        #expect(throws: SensorError.self) { try ak.initialize(delay: { _ in }) }
    }

    @Test func ak09916OverflowAndOverrun() throws {
        let (b, _) = try ready()
        var ak = AK09916(bus: b.bus)
        try ak.initialize(delay: { b.clock.advance(seconds: $0) })
        _ = try ak.read()
        b.clock.advance(seconds: 0.025)
        #expect(try #require(try ak.read()).overrun)
        let now = b.clock.seconds
        b.icm20948!.sensor.magneticDisturbance = (now, now + 1, Vector3(0, 5000, 5000))
        b.clock.advance(seconds: 0.011)
        #expect(throws: SensorError.magneticOverflow) { _ = try ak.read() }
    }
}
