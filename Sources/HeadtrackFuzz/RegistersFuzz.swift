import Hardware
import Sensors

/// The register bytes that detection and the drivers read, from a bus that answers with the fuzzer's bytes: a
/// clone with odd identities, a chip that answers garbage, a bus that fails part-way. Each read takes the next
/// bytes of the input; a byte of 0xFF before a write makes that write fail, and when the input runs out every
/// transfer fails as a chip that stopped answering would. What must hold: detection, set-up and reading never
/// trap or hang, and every sample a driver hands over (the screen passed it) is finite.
enum RegistersFuzz {
    struct FuzzBus: I2CBus {
        var bytes: [UInt8]
        var at = 0
        let name = "fuzz bus"

        mutating func readRegisters(address: UInt8, register: UInt8,
                                    into buffer: UnsafeMutableBufferPointer<UInt8>) throws(I2CError) {
            guard at + buffer.count <= bytes.count else { throw .noAcknowledge(address: address) }
            for i in buffer.indices { buffer[i] = bytes[at + i] }
            at += buffer.count
        }

        mutating func writeRegister(address: UInt8, register: UInt8, value: UInt8) throws(I2CError) {
            guard at < bytes.count else { throw .noAcknowledge(address: address) }
            if bytes[at] == 0xFF { at += 1; throw .transferFailed(address: address, errno: 5) }
        }
    }

    static func run(_ bytes: [UInt8]) {
        var bus = FuzzBus(bytes: bytes)
        let detection = BoardDetector.detect(&bus)
        guard var board = try? detection.makeBoard(bus: bus) else { return }
        do { try board.initialize(delay: { _ in }) } catch { return }
        for _ in 0..<16 {
            if let s = try? board.readIMU() {
                guard s.accel.isFinite, s.gyro.isFinite else { fatalError("a sample that is not finite: \(s)") }
            }
            if let m = try? board.readMagnetometer() {
                guard m.field.isFinite else { fatalError("a field that is not finite: \(m)") }
            }
        }
    }
}
