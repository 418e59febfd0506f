import Geometry
import Hardware
import Simulation
import Testing
@testable import Sensors

/// MPU-6500 driver (and the "MPU-9250" clones that are really 6500s) against the MPU-6500 twin
/// (RM-MPU-6500A-00 rev 2.1).
@Suite struct MPU6500DriverTests {
    @Test func configurationWritesMatchTheDatasheet() throws {
        let b = ChipTest.breakout(.mpu6500)
        var d = MPU6500(bus: b.bus)
        try d.initialize(delay: { b.clock.advance(seconds: $0) })
        let w = ChipTest.writes(b.bus, to: 0x68)
        #expect(w.firstIndex(of: [0x6B, 0x80])! < w.firstIndex(of: [0x6B, 0x01])!)
        #expect(w.contains([0x1A, 0x02]))  // CONFIG DLPF_CFG 2: gyro 92 Hz
        #expect(w.contains([0x1D, 0x02]))  // ACCEL_CONFIG2 A_DLPF_CFG 2: accel 92 Hz, fchoice_b 0
        #expect(w.contains([0x1B, 0x08]) && w.contains([0x1C, 0x08]) && w.contains([0x19, 4]) && w.contains([0x37, 0x02]))
        #expect(b.mpu9250!.sampleRateHz == 200)
        #expect(d.chipName == "MPU-6500")
    }

    @Test func readingsAndTemperatureMatchTheTruth() throws {
        let b = ChipTest.breakout(.mpu6500)
        var d = MPU6500(bus: b.bus)
        try d.initialize(delay: { b.clock.advance(seconds: $0) })
        for _ in 0..<20 {
            b.clock.advance(seconds: 0.09)
            let truth = ChipTest.truth(b.motion, at: (b.clock.seconds * 200).rounded(.down) / 200)
            let s = try d.readIMU()
            #expect((s.accel - truth.accel).length < 2 * ChipTest.gravity / 8192)
            #expect((s.gyro - truth.gyro).length < 2 * (Double.pi / 180) / 65.5)
            #expect(abs(s.temperature - 25) < 0.005)  // (raw − 0)/333.87 + 21
        }
    }

    @Test func cloneAnswering0x70IsNotAnMPU9250() throws {
        // An "MPU-9250" board whose chip answers 0x70 and has no magnetometer (kriswiner/MPU9250#331).
        let b = ChipTest.breakout(.mpuClone(whoAmI: 0x70, hasAK8963: false))
        var nine = MPU9250(bus: b.bus)
        #expect(throws: SensorError.self) { try nine.initialize(delay: { _ in }) }
        var six = MPU6500(bus: b.bus)
        try six.initialize(delay: { _ in })
        #expect(six.chipName == "MPU-6500")
    }

    @Test func unlistedIdentityNeedsConsent() throws {
        let b = ChipTest.breakout(.mpuClone(whoAmI: 0x75, hasAK8963: true))
        var strict = MPU6500(bus: b.bus)
        #expect(throws: SensorError.unexpectedIdentity(bus: "simulated bus", address: 0x68, register: 0x75, found: 0x75,
                                                        expected: "0x70 (MPU-6500)")) {
            try strict.initialize(delay: { _ in })
        }
        var c = InvenSenseConfiguration()
        c.settings.acceptUnknownIdentity = true
        var lenient = MPU6500(bus: b.bus, configuration: c)
        try lenient.initialize(delay: { _ in })
        #expect(lenient.chipName.contains("0x75"))
    }
}
