import Hardware
import Testing
@testable import Simulation

/// The AK8963 model's read protocol, against the datasheet (AKM MS1356-E-02 §6.4, §8.3).
@Suite struct AK8963ModelTests {
    func board() -> SimulatedBoard {
        var s = MotionScript()
        s.append(.still(duration: 10))
        return SimulatedBoard(motion: s)
    }

    func read(_ b: SimulatedBoard, _ register: UInt8, _ count: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        try out.withUnsafeMutableBufferPointer { try b.bus.readRegisters(address: 0x0C, register: register, into: $0) }
        return out
    }

    @Test func hiddenUntilBypassIsEnabled() throws {
        let b = board()
        #expect(throws: I2CError.noAcknowledge(address: 0x0C)) { try read(b, 0x00, 1) }
        try b.bus.writeRegister(address: 0x68, register: 0x37, value: 0x02)
        #expect(try read(b, 0x00, 1) == [0x48])  // WIA
    }

    @Test func dataReadyLatchAndST2Release() throws {
        let b = board()
        try b.bus.writeRegister(address: 0x68, register: 0x37, value: 0x02)
        try b.bus.writeRegister(address: 0x0C, register: 0x0A, value: 0x16)  // 16-bit, 100 Hz
        b.clock.advance(seconds: 0.015)
        #expect(try read(b, 0x02, 1)[0] & 0x01 == 0x01)  // DRDY
        let block = try read(b, 0x02, 8)                 // ST1..ST2
        #expect(block[0] & 0x01 == 0x01)
        #expect(block[7] & 0x10 == 0x10)                 // ST2.BITM mirrors 16-bit output
        #expect(try read(b, 0x02, 1)[0] & 0x01 == 0)     // read released: no new data yet
        b.clock.advance(seconds: 0.010)
        #expect(try read(b, 0x02, 1)[0] & 0x01 == 0x01)  // next 100 Hz measurement
    }

    /// "Reading any of HXL..HZH or ST2 clears DRDY and DOR" (hardware-facts §1.4), so ST2 alone does too.
    @Test func readingST2AloneClearsDataReadyAndOverrun() throws {
        let b = board()
        try b.bus.writeRegister(address: 0x68, register: 0x37, value: 0x02)
        try b.bus.writeRegister(address: 0x0C, register: 0x0A, value: 0x16)  // 16-bit, 100 Hz
        b.clock.advance(seconds: 0.015)
        #expect(try read(b, 0x02, 1)[0] == 0x01)       // DRDY
        b.clock.advance(seconds: 0.010)                 // the next measurement lands on unread data
        #expect(try read(b, 0x02, 1)[0] == 0x03)       // DRDY and DOR
        _ = try read(b, 0x09, 1)                        // ST2
        #expect(try read(b, 0x02, 1)[0] == 0x00)
    }

    @Test func fuseROMOnlyInFuseMode() throws {
        let b = board()
        try b.bus.writeRegister(address: 0x68, register: 0x37, value: 0x02)
        #expect(try read(b, 0x10, 3) == [0, 0, 0])
        try b.bus.writeRegister(address: 0x0C, register: 0x0A, value: 0x0F)
        #expect(try read(b, 0x10, 3) == [176, 177, 165])
    }
}
