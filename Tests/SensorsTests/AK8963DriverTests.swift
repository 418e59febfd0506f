import Geometry
import Hardware
import Simulation
import Testing
@testable import Sensors

/// The standalone AK8963 driver behind an MPU-9250/9255 twin (AKM MS1356-E-02).
@Suite struct AK8963DriverTests {
    func ready(_ part: SimulatedIMUPart = .mpu9250) throws -> (SimulatedBreakout, AK8963<SimulatedI2CBus>) {
        let b = ChipTest.breakout(part)
        var imu = MPU9250(bus: b.bus)
        try imu.initialize(delay: { b.clock.advance(seconds: $0) })
        var ak = AK8963(bus: b.bus)
        try ak.initialize(delay: { b.clock.advance(seconds: $0) })
        return (b, ak)
    }

    @Test func fuseROMThenSixteenBitContinuous100Hz() throws {
        let (b, ak) = try ready()
        let w = ChipTest.writes(b.bus, to: 0x0C)
        // CNTL1: power-down, fuse ROM access (0x0F), power-down, then 16-bit continuous mode 2 (0x16).
        #expect(w == [[0x0A, 0x00], [0x0A, 0x0F], [0x0A, 0x00], [0x0A, 0x16]])
        // The model's ASA (176, 177, 165) → (ASA − 128)·0.5/128 + 1.
        #expect(abs(ak.adjustment.x - 1.1875) < 1e-12 && abs(ak.adjustment.y - (1 + 49.0 / 256)) < 1e-12
            && abs(ak.adjustment.z - (1 + 37.0 / 256)) < 1e-12)
        #expect(!ak.fuseROMLooksFake)
    }

    @Test func fieldComesOutInTheMPUFrame() throws {
        var (b, ak) = try ready(.mpu9255)
        var checked = 0
        for _ in 0..<25 {
            b.clock.advance(seconds: 0.07)  // through the still part into the turn
            guard let m = try ak.read() else { continue }
            let truth = ChipTest.truth(b.motion, at: (b.clock.seconds * 100).rounded(.down) / 100)
            #expect((m.field - truth.field).length < 0.5)  // 0.15 µT × ASA quantisation
            checked += 1
        }
        #expect(checked > 20)
        // Die axes: the raw registers hold (MPU y, MPU x, −MPU z) (DS9250 §9.1; kernel "x <- y, y <- x, z <- -z").
        b.clock.advance(seconds: 0.02)
        let raw = try ChipTest.readBytes(b.bus, 0x0C, 0x02, 8)
        let truth = ChipTest.truth(b.motion, at: (b.clock.seconds * 100).rounded(.down) / 100).field
        func le(_ i: Int) -> Double { Double(Int16(bitPattern: UInt16(raw[i + 1]) << 8 | UInt16(raw[i]))) }
        let factors = [1 + 48.0 / 256, 1 + 49.0 / 256, 1 + 37.0 / 256]
        #expect(abs(le(1) * 0.15 * factors[0] - truth.y) < 0.3)
        #expect(abs(le(3) * 0.15 * factors[1] - truth.x) < 0.3)
        #expect(abs(le(5) * 0.15 * factors[2] + truth.z) < 0.3)
        _ = ak
    }

    @Test func overflowAndOverrunAreReported() throws {
        var (b, ak) = try ready()
        _ = try ak.read()
        // Two measurement periods unread: ST1.DOR on the next read (AK8963 §8.3.4).
        b.clock.advance(seconds: 0.025)
        let late = try #require(try ak.read())
        #expect(late.overrun)
        // A magnet: |X|+|Y|+|Z| ≥ 4912 µT sets ST2.HOFL, and the data must not be used.
        let now = b.clock.seconds
        b.mpu9250!.sensor.magneticDisturbance = (now, now + 1, Vector3(5000, 5000, 0))
        b.clock.advance(seconds: 0.011)
        #expect(throws: SensorError.magneticOverflow) { _ = try ak.read() }
    }

    @Test func wrongWIAIsNotTrusted() throws {
        let b = ChipTest.breakout(.mpuClone(whoAmI: 0x75, hasAK8963: false))
        var ak = AK8963(bus: b.bus)
        try b.bus.writeRegister(address: 0x68, register: 0x37, value: 0x02)
        #expect(throws: SensorError.magnetometerMissing(bus: "simulated bus", detail: "nothing answered at 0x0c with the MPU's bypass enabled")) {
            try ak.initialize(delay: { _ in })
        }
    }
}
