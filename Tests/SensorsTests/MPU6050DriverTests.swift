import Geometry
import Hardware
import Simulation
import Testing
@testable import Sensors

/// MPU-6050 driver against its register-level twin. Expected values are datasheet numbers
/// (RM-MPU-6000A-00 rev 4.2), not the driver's constants.
@Suite struct MPU6050DriverTests {
    @Test func configurationWritesMatchTheDatasheet() throws {
        let b = ChipTest.breakout(.mpu6050)
        var d = MPU6050(bus: b.bus)
        try d.initialize(delay: { b.clock.advance(seconds: $0) })
        let w = ChipTest.writes(b.bus, to: 0x68)
        let reset = try #require(w.firstIndex(of: [0x6B, 0x80]))  // PWR_MGMT_1 H_RESET
        let wake = try #require(w.firstIndex(of: [0x6B, 0x01]))   // SLEEP cleared, CLKSEL 1 (PLL, gyro X)
        #expect(reset < wake)
        #expect(w.contains([0x6C, 0x00]))   // PWR_MGMT_2: every axis on
        #expect(w.contains([0x1A, 0x02]))   // CONFIG DLPF_CFG 2: 94 Hz accel / 98 Hz gyro
        #expect(w.contains([0x19, 4]))      // SMPLRT_DIV 4: 1 kHz / 5 = 200 Hz
        #expect(w.contains([0x1B, 0x08]))   // GYRO_CONFIG FS_SEL 1: ±500 °/s
        #expect(w.contains([0x1C, 0x08]))   // ACCEL_CONFIG AFS_SEL 1: ±4 g
        #expect(w.contains([0x6A, 0x00]))   // USER_CTRL: I2C master off ...
        #expect(w.contains([0x37, 0x02]))   // ... INT_PIN_CFG BYPASS_EN
        #expect(!w.contains { $0[0] == 0x1D })  // no ACCEL_CONFIG2 on the 6050
        #expect(b.mpu6050!.sampleRateHz == 200)
        #expect(d.chipName == "MPU-6050")
    }

    @Test func asleepAfterPowerOnUntilWoken() throws {
        let b = ChipTest.breakout(.mpu6050)
        // PWR_MGMT_1 resets to 0x40 on the 6050 (RM6050 §3): asleep, data registers not updated.
        #expect(try ChipTest.readBytes(b.bus, 0x68, 0x6B, 1) == [0x40])
        b.clock.advance(seconds: 0.5)
        #expect(try ChipTest.readBytes(b.bus, 0x68, 0x3B, 14) == [UInt8](repeating: 0, count: 14))
    }

    @Test func readingsAndTemperatureMatchTheTruth() throws {
        let b = ChipTest.breakout(.mpu6050)
        var d = MPU6050(bus: b.bus)
        try d.initialize(delay: { b.clock.advance(seconds: $0) })
        for step in 0..<30 {
            b.clock.advance(seconds: 0.07 + Double(step % 3) * 0.001)
            let t = (b.clock.seconds * 200).rounded(.down) / 200
            let truth = ChipTest.truth(b.motion, at: t)
            let s = try d.readIMU()
            // One LSB at ±4 g is 9.81/8192 m/s²; at ±500 °/s it is 1/65.5 °/s.
            #expect((s.accel - truth.accel).length < 2 * ChipTest.gravity / 8192)
            #expect((s.gyro - truth.gyro).length < 2 * (Double.pi / 180) / 65.5)
            // The model's die is at 25 °C; raw/340 + 36.53 must give it back (to 1/340 °C).
            #expect(abs(s.temperature - 25) < 0.005)
        }
    }

    @Test func anMPU9250IsNotTakenForAnMPU6050() throws {
        let b = ChipTest.breakout(.mpu9250)
        var d = MPU6050(bus: b.bus)
        #expect(throws: SensorError.unexpectedIdentity(bus: "simulated bus", address: 0x68, register: 0x75, found: 0x71,
                                                        expected: "0x68 (MPU-6050)")) {
            try d.initialize(delay: { _ in })
        }
    }

    @Test func powerLossIsNoticedAndReinitialisationRestoresIt() throws {
        let b = ChipTest.breakout(.mpu6050)
        var d = MPU6050(bus: b.bus)
        try d.initialize(delay: { b.clock.advance(seconds: $0) })
        #expect(try d.configurationIntact())
        b.mpu6050!.powerOnReset()
        #expect(try d.configurationIntact() == false)
        try d.initialize(delay: { _ in }, reset: false)
        #expect(try d.configurationIntact())
        #expect(!b.mpu6050!.isAsleep)
    }
}
