import Hardware

/// A register-level chip on the simulated bus.
public protocol SimulatedChip: AnyObject {
    /// Whether the chip acknowledges its address right now (e.g. the AK8963 only with the MPU's bypass on).
    var isVisible: Bool { get }
    /// Reads `count` registers from `register` in one transaction (auto-increment as the chip does it).
    func read(register: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>)
    func write(register: UInt8, value: UInt8)
    /// Back to power-on register values (after a power loss, or a reset command).
    func powerOnReset()
}

/// Faults the simulated bus can inject into transfers, for the pipeline's fault handling.
public enum InjectedFault: Sendable, Equatable {
    /// No acknowledge (ENXIO): the chip is not there.
    case noAcknowledge
    /// EIO mid-transfer.
    case ioError
    /// Controller timeout.
    case timeout
    /// A read of more than one byte returns only half of them (the kernel reports the count it got).
    case shortRead
    /// A read starting at `register` (nil: any read) returns byte `offset` XORed with `mask`, and the bus
    /// reports success: noise on a long cable that no error code reveals.
    case corruptedByte(register: UInt8?, offset: Int, mask: UInt8)
    /// Reads starting at `register` return the bytes of the first such read inside the window: data
    /// registers that stopped updating while the chip still answers.
    case frozen(register: UInt8)
}

/// A simulated I²C bus: chips by address, the simulation clock, and a schedule of injected faults.
public final class SimulatedI2CBus: I2CBus {
    public let name: String
    public let clock: VirtualClock
    private var chips: [UInt8: any SimulatedChip] = [:]
    /// Fault windows in simulated seconds; a transfer to `address` (nil = any) inside a window fails.
    public var faults: [(start: Double, end: Double, address: UInt8?, fault: InjectedFault)] = []
    /// Every register write, in order, so tests can check the driver against datasheet values.
    public private(set) var writes: [(address: UInt8, register: UInt8, value: UInt8)] = []
    public var recordWrites = true
    public private(set) var transfers = 0
    /// Power losses: the chips at `addresses` lose power at `start` (their registers reset) and do not
    /// answer until `end` — a loose supply wire or a brown-out.
    public private(set) var powerLosses: [(start: Double, end: Double, addresses: [UInt8])] = []
    private var powerLossApplied: [Bool] = []
    /// Bytes captured by each `.frozen` window, by index into `faults`.
    private var frozenBytes: [Int: [UInt8]] = [:]
    /// When set, every transfer moves the simulation clock on by the time it takes on a real bus at this SCL
    /// rate (hardware-facts §6.1: 30 + 9·N bit-times for an N-byte register read, 29 for a register write),
    /// so a loop on the simulated board spends the I²C time a real one would. nil: transfers take no time.
    public var busClockHz: Double? = nil

    public init(name: String = "simulated bus", clock: VirtualClock) {
        self.name = name
        self.clock = clock
    }

    public func attach(_ chip: any SimulatedChip, at address: UInt8) { chips[address] = chip }
    public func detach(address: UInt8) { chips[address] = nil }
    public func chip(at address: UInt8) -> (any SimulatedChip)? { chips[address] }

    /// Schedules a power loss of the chips at `addresses` (an IMU and the magnetometer in its package lose
    /// power together) from `start` to `end`, simulated seconds.
    public func powerGlitch(start: Double, end: Double, addresses: [UInt8]) {
        powerLosses.append((start, end, addresses))
        powerLossApplied.append(false)
    }

    private func isActive(_ i: Int, _ address: UInt8, _ t: Double) -> Bool {
        let f = faults[i]
        return t >= f.start && t < f.end && (f.address == nil || f.address == address)
    }

    private func check(_ address: UInt8) throws(I2CError) -> any SimulatedChip {
        transfers += 1
        let t = clock.seconds
        for i in powerLosses.indices where t >= powerLosses[i].start {
            if !powerLossApplied[i] {
                powerLossApplied[i] = true
                for a in powerLosses[i].addresses { chips[a]?.powerOnReset() }
            }
            if t < powerLosses[i].end && powerLosses[i].addresses.contains(address) { throw .noAcknowledge(address: address) }
        }
        for i in faults.indices where isActive(i, address, t) {
            switch faults[i].fault {
            case .noAcknowledge: throw .noAcknowledge(address: address)
            case .ioError: throw .transferFailed(address: address, errno: 5)
            case .timeout: throw .timeout(address: address)
            case .shortRead, .corruptedByte, .frozen: continue  // only reads; applied there
            }
        }
        guard let chip = chips[address], chip.isVisible else { throw .noAcknowledge(address: address) }
        return chip
    }

    public func readRegisters(address: UInt8, register: UInt8,
                              into buffer: UnsafeMutableBufferPointer<UInt8>) throws(I2CError) {
        guard buffer.count <= 32 else { throw .invalidRequest("block reads are at most 32 bytes") }
        // Bus time is charged for failed transfers too: the address phase and the wait happen either way.
        defer { if let hz = busClockHz { clock.advance(seconds: Double(30 + 9 * buffer.count) / hz) } }
        let chip = try check(address)
        if faults.isEmpty {
            chip.read(register: register, into: buffer)
            return
        }
        let t = clock.seconds
        var servedFromFrozen = false
        for i in faults.indices where isActive(i, address, t) {
            switch faults[i].fault {
            case .shortRead where buffer.count > 1:
                chip.read(register: register, into: buffer)
                throw .shortRead(address: address, expected: buffer.count, got: buffer.count / 2)
            case let .frozen(r) where r == register && !servedFromFrozen:
                if let bytes = frozenBytes[i], bytes.count == buffer.count {
                    for j in 0..<buffer.count { buffer[j] = bytes[j] }
                } else {
                    chip.read(register: register, into: buffer)
                    frozenBytes[i] = Array(buffer)
                }
                servedFromFrozen = true
            default: continue
            }
        }
        if !servedFromFrozen { chip.read(register: register, into: buffer) }
        for i in faults.indices where isActive(i, address, t) {
            if case let .corruptedByte(r, offset, mask) = faults[i].fault, r == nil || r == register, buffer.count > 0 {
                buffer[min(offset, buffer.count - 1)] ^= mask
            }
        }
    }

    public func writeRegister(address: UInt8, register: UInt8, value: UInt8) throws(I2CError) {
        let chip = try check(address)
        if recordWrites { writes.append((address, register, value)) }
        chip.write(register: register, value: value)
        if let hz = busClockHz { clock.advance(seconds: 29 / hz) }
    }
}
