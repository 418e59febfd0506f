/// Register-level access to devices on one I²C bus. Real (`LinuxI2CBus`) and simulated buses implement it;
/// drivers are generic over it, so the per-sample path has no existential dispatch.
public protocol I2CBus {
    /// Reads `buffer.count` (≤ 32) consecutive registers starting at `register` in one transaction.
    mutating func readRegisters(address: UInt8, register: UInt8,
                                into buffer: UnsafeMutableBufferPointer<UInt8>) throws(I2CError)
    /// Writes one register.
    mutating func writeRegister(address: UInt8, register: UInt8, value: UInt8) throws(I2CError)
    /// Where the bus lives, for messages ("/dev/i2c-1", "simulated bus").
    var name: String { get }
}

extension I2CBus {
    /// Reads one register.
    public mutating func readRegister(address: UInt8, register: UInt8) throws(I2CError) -> UInt8 {
        var value: UInt8 = 0
        try withUnsafeMutablePointer(to: &value) { (p) throws(I2CError) in
            try readRegisters(address: address, register: register, into: UnsafeMutableBufferPointer(start: p, count: 1))
        }
        return value
    }
}

/// What went wrong on the bus. Each case carries enough to say what to do about it.
public enum I2CError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bus device could not be opened (missing /dev/i2c-N, permissions).
    case cannotOpen(path: String, errno: Int32)
    /// No acknowledge from the address (ENXIO/EREMOTEIO): nothing there, or it stopped answering.
    case noAcknowledge(address: UInt8)
    /// Generic transfer error (EIO and friends), e.g. a glitch on a loose connector.
    case transferFailed(address: UInt8, errno: Int32)
    /// The controller timed out (ETIMEDOUT), e.g. a slave holding SCL low.
    case timeout(address: UInt8)
    /// Fewer bytes came back than were asked for.
    case shortRead(address: UInt8, expected: Int, got: Int)
    /// A request the bus cannot do (more than 32 bytes in one block).
    case invalidRequest(String)

    public var description: String {
        switch self {
        case let .cannotOpen(path, e):
            if e == 2 {  // ENOENT
                return "\(path) does not exist: is I²C enabled (dtparam=i2c_arm=on in config.txt) and the i2c-dev module loaded (modprobe i2c-dev)?"
            }
            if e == 13 {  // EACCES
                return "no permission to open \(path): add the user to the 'i2c' group (usermod -aG i2c $USER) or run the service as the headtrack user"
            }
            return "cannot open \(path): \(describeErrno(e))"
        case let .noAcknowledge(a):
            return "nothing answered at address \(hex(a)): check wiring (SDA pin 3, SCL pin 5, 3.3 V, GND) and the address (i2cdetect -y 1)"
        case let .transferFailed(a, e):
            return "I²C transfer with \(hex(a)) failed: \(describeErrno(e)) (a loose connector or a too-long cable?)"
        case let .timeout(a):
            return "I²C transfer with \(hex(a)) timed out: a device may be holding the clock line low; power-cycle the sensor"
        case let .shortRead(a, exp, got):
            return "short read from \(hex(a)): asked for \(exp) bytes, got \(got)"
        case let .invalidRequest(s):
            return "invalid I²C request: \(s)"
        }
    }

    /// Maps a negative errno from the kernel to a case.
    public static func from(errno e: Int32, address: UInt8) -> I2CError {
        switch e {
        // ENXIO and EREMOTEIO are the usual NACK; i2c-stub (and some adapters) answer ENODEV for an empty address.
        case 6, 19, 121: return .noAcknowledge(address: address)
        case 110: return .timeout(address: address)  // ETIMEDOUT
        default: return .transferFailed(address: address, errno: e)
        }
    }
}

/// "0x68" style formatting without Foundation.
public func hex(_ value: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return "0x" + String(digits[Int(value >> 4)]) + String(digits[Int(value & 0xF)])
}

public func describeErrno(_ e: Int32) -> String {
    switch e {
    case 1: return "operation not permitted (EPERM)"
    case 2: return "no such file or directory (ENOENT)"
    case 5: return "input/output error (EIO)"
    case 6: return "no such device or address (ENXIO)"
    case 13: return "permission denied (EACCES)"
    case 16: return "device busy (EBUSY): another program holds it"
    case 19: return "no such device (ENODEV): the bus went away"
    case 22: return "invalid argument (EINVAL)"
    case 110: return "timed out (ETIMEDOUT)"
    case 121: return "remote I/O error (EREMOTEIO)"
    default: return "errno \(e)"
    }
}
