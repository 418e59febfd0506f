import CLinux
import LibC

/// An I²C bus through the kernel's i2c-dev interface and libi2c (SMBus calls), e.g. /dev/i2c-1.
/// A class because it owns a file descriptor; all methods are final, so calls are statically dispatched.
public final class LinuxI2CBus: I2CBus {
    public let name: String
    private var fd: Int32
    private var selectedAddress: Int32 = -1

    /// Opens the bus and takes its lock: one headtrack per bus, so a second `run`, `calibrate` or `record`
    /// refuses before it touches a register instead of reconfiguring the IMU under the running loop.
    /// The lock is a POSIX record lock on the device itself (nothing to clean up after a crash: the kernel
    /// drops it with the process), and it names the holder's pid.
    public init(path: String) throws(I2CError) {
        name = path
        fd = open(path, O_RDWR | O_CLOEXEC)
        if fd < 0 { throw .cannotOpen(path: path, errno: errno) }
        do throws(I2CError) {
            try Self.checkIsAdapter(fd, path: path)
            try Self.lock(fd, path: path)
        } catch {
            close(fd)
            fd = -1
            throw error
        }
    }

    /// The exclusive lock on an open bus (or any file opened for writing); throws `busInUse` naming the holder.
    static func lock(_ fd: Int32, path: String) throws(I2CError) {
        let holder = ht_lock_exclusive(fd)
        if holder > 0 || holder == -EAGAIN { throw .busInUse(path: path, pid: max(holder, 0)) }
        // Locking itself failing (e.g. a file system without POSIX locks) must not stop the tracker.
    }

    /// A regular file, /dev/null or any other device would otherwise "answer" with NACKs and be reported as
    /// bad wiring; I2C_FUNCS only succeeds on an i2c-dev adapter.
    static func checkIsAdapter(_ fd: Int32, path: String) throws(I2CError) {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .cannotOpen(path: path, errno: errno) }
        if (st.st_mode & S_IFMT) != S_IFCHR {
            throw .notAnI2CBus(path: path, detail: (st.st_mode & S_IFMT) == S_IFREG ? "a regular file" : "not a character device")
        }
        let r = ht_i2c_check_adapter(fd)
        if r < 0 { throw .notAnI2CBus(path: path, detail: "a character device that does not answer I2C_FUNCS: \(describeErrno(-r))") }
    }

    deinit { if fd >= 0 { close(fd) } }

    /// The i2c-dev buses this machine has ("/dev/i2c-1", ...), sorted by number, for messages that say where
    /// to look when the configured one is missing.
    public static func existingBuses(in directory: String = "/dev") -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var numbers: [Int] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let n = busNumber(deviceName: name) { numbers.append(n) }
        }
        return numbers.sorted().map { directory + "/i2c-\($0)" }
    }

    /// 1 for "i2c-1" (a name in /dev), the number i2cdetect takes; nil for any other name. At most six
    /// digits, so the conversion to Int cannot trap.
    public static func busNumber(deviceName name: Substring) -> Int? {
        guard name.hasPrefix("i2c-") else { return nil }
        let digits = name.dropFirst(4)
        guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }

    public static func busNumber(deviceName name: String) -> Int? { busNumber(deviceName: Substring(name)) }

    private func select(_ address: UInt8) throws(I2CError) {
        if selectedAddress == Int32(address) { return }
        let r = ht_i2c_select(fd, UInt16(address))
        if r < 0 { throw I2CError.from(errno: -r, address: address) }
        selectedAddress = Int32(address)
    }

    public func readRegisters(address: UInt8, register: UInt8,
                              into buffer: UnsafeMutableBufferPointer<UInt8>) throws(I2CError) {
        guard buffer.count <= 32, let base = buffer.baseAddress else {
            throw .invalidRequest("block reads are at most 32 bytes, asked for \(buffer.count)")
        }
        try select(address)
        if buffer.count == 1 {
            // A plain byte read works on every SMBus adapter, even those without I²C block support.
            let r = ht_i2c_read_byte(fd, register)
            if r < 0 { throw I2CError.from(errno: -r, address: address) }
            base[0] = UInt8(truncatingIfNeeded: r)
            return
        }
        let r = ht_i2c_read_block(fd, register, UInt8(buffer.count), base)
        if r < 0 { throw I2CError.from(errno: -r, address: address) }
        if Int(r) != buffer.count { throw .shortRead(address: address, expected: buffer.count, got: Int(r)) }
    }

    public func writeRegister(address: UInt8, register: UInt8, value: UInt8) throws(I2CError) {
        try select(address)
        let r = ht_i2c_write_byte(fd, register, value)
        if r < 0 { throw I2CError.from(errno: -r, address: address) }
    }
}
