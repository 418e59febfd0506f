import Hardware
import Testing
@testable import Simulation

/// Register behaviour of the new chip models, against the datasheet facts they model.
@Suite struct ChipModelTests {
    func still() -> MotionScript {
        var s = MotionScript()
        s.append(.still(duration: 10))
        return s
    }

    func read(_ bus: SimulatedI2CBus, _ address: UInt8, _ register: UInt8, _ count: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        try out.withUnsafeMutableBufferPointer { try bus.readRegisters(address: address, register: register, into: $0) }
        return out
    }

    @Test func mpu6050RatesAndReset() throws {
        let b = SimulatedBreakout(imu: .mpu6050, motion: still())
        let m = b.mpu6050!
        #expect(m.isAsleep)
        try b.bus.writeRegister(address: 0x68, register: 0x1A, value: 0)  // DLPF off: gyro output 8 kHz
        #expect(m.sampleRateHz == 8000)
        try b.bus.writeRegister(address: 0x68, register: 0x1A, value: 3)
        try b.bus.writeRegister(address: 0x68, register: 0x19, value: 9)
        #expect(m.sampleRateHz == 100)  // 1 kHz / (1 + 9)
        try b.bus.writeRegister(address: 0x68, register: 0x6B, value: 0x00)
        b.clock.advance(seconds: 0.02)
        // 25 °C: (25 − 36.53) × 340 = −3920.2 → −3920 = 0xF0B0.
        #expect(try read(b.bus, 0x68, 0x41, 2) == [0xF0, 0xB0])
        try b.bus.writeRegister(address: 0x68, register: 0x6B, value: 0x80)  // H_RESET
        #expect(m.isAsleep)
        #expect(try read(b.bus, 0x68, 0x75, 1) == [0x68])
    }

    @Test func icmBanks() throws {
        let b = SimulatedBreakout(imu: .icm20948, motion: still())
        #expect(try read(b.bus, 0x68, 0x00, 1) == [0xEA])
        #expect(try read(b.bus, 0x68, 0x06, 1) == [0x41])  // PWR_MGMT_1 reset: asleep, CLKSEL 1
        try b.bus.writeRegister(address: 0x68, register: 0x7F, value: 0x20)
        #expect(try read(b.bus, 0x68, 0x7F, 1) == [0x20])
        #expect(try read(b.bus, 0x68, 0x01, 1) == [0x01])  // bank 2 GYRO_CONFIG_1 reset
        try b.bus.writeRegister(address: 0x68, register: 0x00, value: 10)  // GYRO_SMPLRT_DIV
        #expect(b.icm20948!.sampleRateHz == 1125.0 / 11)
        try b.bus.writeRegister(address: 0x68, register: 0x7F, value: 0x00)
        #expect(try read(b.bus, 0x68, 0x00, 1) == [0xEA])  // bank 0 again
        // The AK09916 only answers with the bypass open (bank 0 INT_PIN_CFG 0x0F bit 1).
        #expect(throws: I2CError.noAcknowledge(address: 0x0C)) { _ = try read(b.bus, 0x0C, 0x00, 2) }
        try b.bus.writeRegister(address: 0x68, register: 0x0F, value: 0x02)
        #expect(try read(b.bus, 0x0C, 0x00, 2) == [0x48, 0x09])
    }

    @Test func ak09916LatchIsReleasedByST2() throws {
        let b = SimulatedBreakout(imu: .icm20948, motion: still())
        try b.bus.writeRegister(address: 0x68, register: 0x0F, value: 0x02)
        try b.bus.writeRegister(address: 0x0C, register: 0x31, value: 0x08)
        b.clock.advance(seconds: 0.015)
        #expect(try read(b.bus, 0x0C, 0x10, 1)[0] & 0x01 == 1)
        _ = try read(b.bus, 0x0C, 0x11, 6)       // data read, no ST2: latched
        b.clock.advance(seconds: 0.02)
        #expect(try read(b.bus, 0x0C, 0x10, 1)[0] & 0x01 == 0)  // new data held back until ST2 is read
        _ = try read(b.bus, 0x0C, 0x18, 1)
        #expect(try read(b.bus, 0x0C, 0x10, 1)[0] & 0x01 == 1)
    }

    @Test func qmcStatusBits() throws {
        let b = SimulatedBreakout(imu: nil, magnetometer: .qmc5883l, motion: still())
        #expect(try read(b.bus, 0x0D, 0x0D, 1) == [0xFF])
        b.clock.advance(seconds: 0.1)
        #expect(try read(b.bus, 0x0D, 0x06, 1) == [0x00])  // standby after power-on: nothing measured
        try b.bus.writeRegister(address: 0x0D, register: 0x09, value: 0x19)
        b.clock.advance(seconds: 0.011)
        #expect(try read(b.bus, 0x0D, 0x06, 1)[0] & 0x01 == 1)        // DRDY
        _ = try read(b.bus, 0x0D, 0x00, 6)
        #expect(try read(b.bus, 0x0D, 0x06, 1)[0] & 0x01 == 0)        // cleared by the data read
        b.clock.advance(seconds: 0.025)
        #expect(try read(b.bus, 0x0D, 0x06, 1)[0] & 0x05 == 0x05)     // DRDY and DOR
        _ = try read(b.bus, 0x0D, 0x00, 6)
        #expect(try read(b.bus, 0x0D, 0x06, 1)[0] & 0x04 == 0)        // DOR cleared by reading 0x00
        try b.bus.writeRegister(address: 0x0D, register: 0x0A, value: 0x80)  // soft reset
        #expect(try read(b.bus, 0x0D, 0x09, 1) == [0x00])
    }

    @Test func hmcSingleMeasurementThenIdle() throws {
        let b = SimulatedBreakout(imu: nil, magnetometer: .hmc5883l, motion: still())
        #expect(try read(b.bus, 0x1E, 0x00, 3) == [0x10, 0x20, 0x01])  // power-on CRA, CRB, MODE
        try b.bus.writeRegister(address: 0x1E, register: 0x02, value: 0x01)
        b.clock.advance(seconds: 0.01)
        #expect(try read(b.bus, 0x1E, 0x09, 1)[0] & 0x01 == 1)  // RDY
        #expect(try read(b.bus, 0x1E, 0x02, 1)[0] & 0x03 >= 2)  // idle afterwards
    }
}
