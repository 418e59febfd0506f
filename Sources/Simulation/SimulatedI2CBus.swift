import Hardware

/// A register-level chip on the simulated bus.
public protocol SimulatedChip: AnyObject {
    /// Whether the chip acknowledges its address right now (e.g. the AK8963 only with the MPU's bypass on).
    var isVisible: Bool { get }
    /// Reads `count` registers from `register` in one transaction (auto-increment as the chip does it).
    func read(register: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>)
    func write(register: UInt8, value: UInt8)
}

/// Faults the simulated bus can inject into transfers, for the pipeline's fault handling.
public enum InjectedFault: Sendable, Equatable {
    /// No acknowledge (ENXIO): the chip is not there.
    case noAcknowledge
    /// EIO mid-transfer.
    case ioError
    /// Controller timeout.
    case timeout
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

    public init(name: String = "simulated bus", clock: VirtualClock) {
        self.name = name
        self.clock = clock
    }

    public func attach(_ chip: any SimulatedChip, at address: UInt8) { chips[address] = chip }
    public func detach(address: UInt8) { chips[address] = nil }
    public func chip(at address: UInt8) -> (any SimulatedChip)? { chips[address] }

    private func check(_ address: UInt8) throws(I2CError) -> any SimulatedChip {
        transfers += 1
        let t = clock.seconds
        for f in faults where t >= f.start && t < f.end && (f.address == nil || f.address == address) {
            switch f.fault {
            case .noAcknowledge: throw .noAcknowledge(address: address)
            case .ioError: throw .transferFailed(address: address, errno: 5)
            case .timeout: throw .timeout(address: address)
            }
        }
        guard let chip = chips[address], chip.isVisible else { throw .noAcknowledge(address: address) }
        return chip
    }

    public func readRegisters(address: UInt8, register: UInt8,
                              into buffer: UnsafeMutableBufferPointer<UInt8>) throws(I2CError) {
        guard buffer.count <= 32 else { throw .invalidRequest("block reads are at most 32 bytes") }
        try check(address).read(register: register, into: buffer)
    }

    public func writeRegister(address: UInt8, register: UInt8, value: UInt8) throws(I2CError) {
        let chip = try check(address)
        if recordWrites { writes.append((address, register, value)) }
        chip.write(register: register, value: value)
    }
}
