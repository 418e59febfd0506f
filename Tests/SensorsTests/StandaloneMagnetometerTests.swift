import Geometry
import Hardware
import Simulation
import Testing
@testable import Sensors

/// QMC5883L and HMC5883L drivers against their twins (kernel qmc5883l.c / hmc5843 register facts).
@Suite struct StandaloneMagnetometerTests {
    // MARK: QMC5883L

    @Test func qmcWritesMatchTheKernelSequence() throws {
        let b = ChipTest.breakout(nil, .qmc5883l)
        var q = QMC5883L(bus: b.bus)
        try q.initialize(delay: { b.clock.advance(seconds: $0) })
        // CTRL2 soft reset, CTRL2 = 0x01 (interrupt pin off), SET/RESET = 0x01, CTRL1 = OSR 512 | ±8 G | 100 Hz | continuous.
        #expect(ChipTest.writes(b.bus, to: 0x0D) == [[0x0A, 0x80], [0x0A, 0x01], [0x0B, 0x01], [0x09, 0b0001_1001]])
    }

    @Test func qmcLittleEndianFieldMatchesTheTruth() throws {
        let b = ChipTest.breakout(nil, .qmc5883l)
        var q = QMC5883L(bus: b.bus)
        try q.initialize(delay: { b.clock.advance(seconds: $0) })
        var checked = 0
        for _ in 0..<20 {
            b.clock.advance(seconds: 0.043)
            guard let m = try q.read() else { continue }
            let truth = ChipTest.truth(b.motion, at: (b.clock.seconds * 100).rounded(.down) / 100).field
            #expect((m.field - truth).length < 0.1)  // 3000 LSB/G: 1/30 µT per LSB
            checked += 1
        }
        #expect(checked > 15)
        b.clock.advance(seconds: 0.02)
        let raw = try ChipTest.readBytes(b.bus, 0x0D, 0x00, 6)
        let truth = ChipTest.truth(b.motion, at: (b.clock.seconds * 100).rounded(.down) / 100).field
        let x = Double(Int16(bitPattern: UInt16(raw[1]) << 8 | UInt16(raw[0]))) / 30
        #expect(abs(x - truth.x) < 0.1)
    }

    @Test func qmcOverflowAndOverrun() throws {
        let b = ChipTest.breakout(nil, .qmc5883l)
        var q = QMC5883L(bus: b.bus)
        try q.initialize(delay: { b.clock.advance(seconds: $0) })
        _ = try q.read()
        b.clock.advance(seconds: 0.025)
        #expect(try #require(try q.read()).overrun)
        let now = b.clock.seconds
        b.qmc5883l!.sensor.magneticDisturbance = (now, now + 1, Vector3(2000, 0, 0))  // one axis beyond ±8 G = 800 µT, whatever the heading
        b.clock.advance(seconds: 0.011)
        #expect(throws: SensorError.magneticOverflow) { _ = try q.read() }
    }

    @Test func qmcRequiresItsChipID() throws {
        let b = ChipTest.breakout(nil, .qmc5883l)
        b.qmc5883l!.registers[0x0D] = 0x00  // rev 1.0: register reserved
        var q = QMC5883L(bus: b.bus)
        #expect(throws: SensorError.self) { try q.initialize(delay: { _ in }) }
        q.acceptUnknownIdentity = true
        try q.initialize(delay: { _ in })
    }

    // MARK: HMC5883L

    @Test func hmcWritesAndIdentity() throws {
        let b = ChipTest.breakout(nil, .hmc5883l)
        #expect(try ChipTest.readBytes(b.bus, 0x1E, 0x0A, 3) == Array("H43".utf8))
        var h = HMC5883L(bus: b.bus)
        try h.initialize(delay: { b.clock.advance(seconds: $0) })
        // CRA: 8-sample average (11), 75 Hz (110), normal (00); CRB gain 1 (1090 LSB/Ga); MODE continuous.
        #expect(ChipTest.writes(b.bus, to: 0x1E) == [[0x00, 0b0111_1000], [0x01, 0x20], [0x02, 0x00]])
    }

    @Test func hmcDataIsXZYBigEndian() throws {
        let b = ChipTest.breakout(nil, .hmc5883l)
        var h = HMC5883L(bus: b.bus)
        try h.initialize(delay: { b.clock.advance(seconds: $0) })
        b.clock.advance(seconds: 2.0)  // mid-turn: all three axes non-zero
        let raw = try ChipTest.readBytes(b.bus, 0x1E, 0x03, 6)
        let truth = ChipTest.truth(b.motion, at: (b.clock.seconds * 75).rounded(.down) / 75).field
        func be(_ i: Int) -> Double { Double(Int16(bitPattern: UInt16(raw[i]) << 8 | UInt16(raw[i + 1]))) * 100 / 1090 }
        #expect(abs(be(0) - truth.x) < 0.1)  // X
        #expect(abs(be(2) - truth.z) < 0.1)  // then Z
        #expect(abs(be(4) - truth.y) < 0.1)  // then Y
        var checked = 0
        for _ in 0..<20 {
            b.clock.advance(seconds: 0.047)
            guard let m = try h.read() else { continue }
            let t = ChipTest.truth(b.motion, at: (b.clock.seconds * 75).rounded(.down) / 75).field
            #expect((m.field - t).length < 0.15)
            checked += 1
        }
        #expect(checked > 15)
        // Nothing new until the next 75 Hz measurement: the unchanged block reads as "no new sample".
        #expect(try h.read() == nil)
    }

    @Test func hmcOverflowReadsMinus4096() throws {
        let b = ChipTest.breakout(nil, .hmc5883l)
        var h = HMC5883L(bus: b.bus)
        try h.initialize(delay: { b.clock.advance(seconds: $0) })
        let now = b.clock.seconds
        b.hmc5883l!.sensor.magneticDisturbance = (now, now + 1, Vector3(0, 0, 500))  // > 2047 counts on Z
        b.clock.advance(seconds: 0.02)
        #expect(try ChipTest.readBytes(b.bus, 0x1E, 0x05, 2) == [0xF0, 0x00])  // −4096 = 0xF000
        #expect(throws: SensorError.magneticOverflow) { _ = try h.read() }
    }

    @Test func hmcBoardThatIsReallyAQMC() throws {
        // A "GY-271 HMC5883L" carrying a QMC5883L: nothing at 0x1E, the real chip at 0x0D.
        let b = ChipTest.breakout(nil, .qmc5883l)
        var h = HMC5883L(bus: b.bus)
        #expect(throws: SensorError.magnetometerMissing(bus: "simulated bus", detail: "nothing answered at 0x1e (HMC5883L)")) {
            try h.initialize(delay: { _ in })
        }
        // And a chip at 0x1E that is not an HMC5883L (wrong identification) is refused with the hint.
        b.bus.attach(b.qmc5883l!, at: 0x1E)
        do {
            try h.initialize(delay: { _ in })
            Issue.record("a chip without 'H43' must not be driven as an HMC5883L")
        } catch {
            #expect(error.description.contains("QMC5883L at 0x0d"))
        }
    }
}
