import Hardware
import Testing
@testable import Simulation

/// The simulated bus's injected faults, at register level.
@Suite struct FaultInjectionBusTests {
    func board() -> SimulatedBoard {
        var s = MotionScript()
        s.append(.still(duration: 10))
        return SimulatedBoard(motion: s)
    }

    func read(_ b: SimulatedBoard, _ address: UInt8, _ register: UInt8, _ count: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        try out.withUnsafeMutableBufferPointer { try b.bus.readRegisters(address: address, register: register, into: $0) }
        return out
    }

    @Test func shortReadCutsBlockReadsOnly() throws {
        let b = board()
        b.bus.faults.append((0, 1, 0x68, .shortRead))
        #expect(throws: I2CError.shortRead(address: 0x68, expected: 14, got: 7)) { _ = try read(b, 0x68, 0x3B, 14) }
        #expect(try read(b, 0x68, 0x75, 1) == [0x71])  // a byte read still works
        b.clock.advance(seconds: 1)
        #expect(try read(b, 0x68, 0x3B, 14).count == 14)
    }

    @Test func corruptedByteFlipsBitsSilently() throws {
        let b = board()
        b.bus.faults.append((0, 1, 0x68, .corruptedByte(register: 0x75, offset: 0, mask: 0x0F)))
        #expect(try read(b, 0x68, 0x75, 1) == [0x71 ^ 0x0F])
        #expect(try read(b, 0x68, 0x6B, 1) == [0x01])  // other registers untouched
    }

    @Test func frozenRegistersRepeatTheFirstReadOfTheWindow() throws {
        let b = board()
        try b.bus.writeRegister(address: 0x68, register: 0x19, value: 4)
        try b.bus.writeRegister(address: 0x68, register: 0x1A, value: 2)
        b.bus.faults.append((0.5, 1.0, 0x68, .frozen(register: 0x3B)))
        b.clock.advance(seconds: 0.5)
        let first = try read(b, 0x68, 0x3B, 14)
        var differs = false
        for _ in 0..<20 {
            b.clock.advance(seconds: 0.01)
            #expect(try read(b, 0x68, 0x3B, 14) == first)
            if try read(b, 0x68, 0x43, 6) != Array(first[8..<14]) { differs = true }  // a read at another register is live
        }
        #expect(differs)
        b.clock.advance(seconds: 0.4)
        #expect(try read(b, 0x68, 0x3B, 14) != first)
    }

    @Test func powerGlitchSilencesThenResetsEveryChipOfThePackage() throws {
        let b = board()
        try b.bus.writeRegister(address: 0x68, register: 0x37, value: 0x02)
        try b.bus.writeRegister(address: 0x68, register: 0x1B, value: 0x08)
        try b.bus.writeRegister(address: 0x0C, register: 0x0A, value: 0x16)
        b.bus.powerGlitch(start: 1, end: 1.2, addresses: [0x68, 0x0C])
        b.clock.advance(seconds: 1.1)
        #expect(throws: I2CError.noAcknowledge(address: 0x68)) { _ = try read(b, 0x68, 0x75, 1) }
        #expect(throws: I2CError.noAcknowledge(address: 0x0C)) { _ = try read(b, 0x0C, 0x00, 1) }
        b.clock.advance(seconds: 0.2)
        // Back with power-on values: PWR_MGMT_1 0x01, INT_PIN_CFG and GYRO_CONFIG 0 (RM9250), the bypass closed,
        // and behind it the AK8963 in power-down (CNTL1 0).
        #expect(try read(b, 0x68, 0x6B, 1) == [0x01])
        #expect(try read(b, 0x68, 0x37, 1) == [0x00])
        #expect(try read(b, 0x68, 0x1B, 1) == [0x00])
        #expect(throws: I2CError.noAcknowledge(address: 0x0C)) { _ = try read(b, 0x0C, 0x00, 1) }
        try b.bus.writeRegister(address: 0x68, register: 0x37, value: 0x02)
        #expect(try read(b, 0x0C, 0x0A, 1) == [0x00])
    }
}

