import LibC

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
    /// The path opened, but it is not an I²C adapter (a regular file, /dev/null, another device).
    case notAnI2CBus(path: String, detail: String)
    /// The kernel refused the address (EBUSY on I2C_SLAVE): a kernel driver has bound it (i2cdetect shows UU).
    case addressInUse(address: UInt8)
    /// Another process (another headtrack, usually the service) holds the bus lock; `pid` 0 when unknown.
    case busInUse(path: String, pid: Int32)

    public var description: String {
        switch self {
        case let .cannotOpen(path, e):
            if e == 2 {  // ENOENT
                return "\(path) does not exist: is I²C enabled (dtparam=i2c_arm=on in config.txt) and the i2c-dev module loaded (modprobe i2c-dev)?"
            }
            if e == 13 {  // EACCES
                return "no permission to open \(path): add the user to the 'i2c' group (usermod -aG i2c $USER) or run the service as the headtrack user"
            }
            if e == 21 {  // EISDIR
                return "\(path) is a directory, not an I²C bus: give the bus device, e.g. /dev/i2c-1"
            }
            return "cannot open \(path): \(describeErrno(e))"
        case let .noAcknowledge(a):
            return "nothing answered at address \(hex(a)): check wiring (SDA pin 3, SCL pin 5, 3.3 V, GND) and the address (i2cdetect -y BUS lists what answers)"
        case let .transferFailed(a, e):
            return "I²C transfer with \(hex(a)) failed: \(describeErrno(e)) (a loose connector or a too-long cable?)"
        case let .timeout(a):
            return "I²C transfer with \(hex(a)) timed out: a device may be holding the clock line low; power-cycle the sensor"
        case let .shortRead(a, exp, got):
            return "short read from \(hex(a)): asked for \(exp) bytes, got \(got)"
        case let .invalidRequest(s):
            return "invalid I²C request: \(s)"
        case let .notAnI2CBus(path, detail):
            return "\(path) is not an I²C bus device (\(detail)): give the bus device, e.g. /dev/i2c-1 (ls /dev/i2c-* lists them)"
        case let .addressInUse(a):
            return "\(hex(a)) is in use by a kernel driver (i2cdetect shows UU there): remove the dtoverlay for it (e.g. dtoverlay=mpu6050) from config.txt and reboot, or unbind the driver"
        case let .busInUse(path, pid):
            return "headtrack is already using \(path)" + (pid > 0 ? " (pid \(pid))" : "")
                + ": stop it first (sudo systemctl stop headtrack), then start it again afterwards"
        }
    }

    /// Maps a negative errno from the kernel to a case.
    public static func from(errno e: Int32, address: UInt8) -> I2CError {
        switch e {
        // ENXIO and EREMOTEIO are the usual NACK; i2c-stub (and some adapters) answer ENODEV for an empty address.
        case 6, 19, 121: return .noAcknowledge(address: address)
        case 110: return .timeout(address: address)  // ETIMEDOUT
        case 16: return .addressInUse(address: address)  // EBUSY from I2C_SLAVE: a kernel driver owns it
        default: return .transferFailed(address: address, errno: e)
        }
    }
}

/// "0x68" style formatting without Foundation.
public func hex(_ value: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return "0x" + String(digits[Int(value >> 4)]) + String(digits[Int(value & 0xF)])
}

/// "is a directory (EISDIR)": the C library's meaning of `e` with its symbolic name, for messages.
public func describeErrno(_ e: Int32) -> String {
    var meaning = String(cString: strerror(e))
    if let first = meaning.first, first.isUppercase, meaning.dropFirst().first?.isLowercase ?? true {
        meaning = first.lowercased() + meaning.dropFirst()
    }
    let hint = e == 16 ? ": another program holds it" : e == 19 ? ": the bus went away" : ""
    return meaning + " (" + (errnoNames[e] ?? "errno \(e)") + ")" + hint
}

/// Symbolic names of the errno values a bus, a GPIO chip or a file can answer (Linux numbering).
private let errnoNames: [Int32: String] = [
    1: "EPERM", 2: "ENOENT", 4: "EINTR", 5: "EIO", 6: "ENXIO", 9: "EBADF", 11: "EAGAIN", 12: "ENOMEM",
    13: "EACCES", 16: "EBUSY", 17: "EEXIST", 19: "ENODEV", 20: "ENOTDIR", 21: "EISDIR", 22: "EINVAL",
    24: "EMFILE", 25: "ENOTTY", 28: "ENOSPC", 30: "EROFS", 32: "EPIPE", 36: "ENAMETOOLONG", 40: "ELOOP",
    95: "EOPNOTSUPP", 110: "ETIMEDOUT", 121: "EREMOTEIO",
]
