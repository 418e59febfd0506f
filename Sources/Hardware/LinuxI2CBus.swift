import CLinux
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An I²C bus through the kernel's i2c-dev interface and libi2c (SMBus calls), e.g. /dev/i2c-1.
/// A class because it owns a file descriptor; all methods are final, so calls are statically dispatched.
public final class LinuxI2CBus: I2CBus {
    public let name: String
    private var fd: Int32
    private var selectedAddress: Int32 = -1

    public init(path: String) throws(I2CError) {
        name = path
        fd = open(path, O_RDWR | O_CLOEXEC)
        if fd < 0 { throw .cannotOpen(path: path, errno: errno) }
    }

    deinit { if fd >= 0 { close(fd) } }

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
