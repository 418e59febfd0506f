import CLinux
import LibC

/// Output lines through the GPIO character device, uAPI v2 (GPIO_V2_GET_LINE_IOCTL, GPIO_V2_LINE_SET_VALUES_IOCTL).
/// sysfs GPIO is deprecated and gone on current Raspberry Pi kernels, so it is not supported.
public final class LinuxGPIOLines: OutputLines {
    public let chipPath: String
    public let chipLabel: String
    public let offsets: [UInt32]
    public var count: Int { offsets.count }
    public var name: String { "\(chipPath) (\(chipLabel)) lines \(offsets.map(String.init).joined(separator: ","))" }
    private var requestFD: Int32
    private let allMask: UInt64

    /// `chip` is a path (/dev/gpiochip0) or a chip label (pinctrl-rp1, pinctrl-bcm2711, ...).
    public init(chip: String, offsets: [UInt32], consumer: String = "headtrack", activeLow: Bool = false) throws(GPIOError) {
        let path = try LinuxGPIOLines.resolve(chip: chip)
        let chipFD = open(path, O_RDWR | O_CLOEXEC)
        if chipFD < 0 { throw .cannotOpen(path: path, errno: errno) }
        defer { close(chipFD) }
        var labelBuffer = [CChar](repeating: 0, count: 33)
        var lines: UInt32 = 0
        _ = ht_gpio_chip_info(chipFD, &labelBuffer, &lines)
        let label = String(decoding: labelBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        for o in offsets where lines > 0 && o >= lines {
            throw .lineOutOfRange(chip: path, offset: o, lines: lines)
        }
        let fd = offsets.withUnsafeBufferPointer { p in
            ht_gpio_request_outputs(chipFD, p.baseAddress, UInt32(offsets.count), consumer, activeLow ? 1 : 0)
        }
        if fd < 0 { throw .requestFailed(chip: path, offsets: offsets, errno: -fd) }
        chipPath = path
        chipLabel = label
        self.offsets = offsets
        requestFD = fd
        allMask = offsets.count >= 64 ? ~0 : (UInt64(1) << UInt64(offsets.count)) - 1
    }

    deinit {
        _ = ht_gpio_set_values(requestFD, 0, allMask)
        close(requestFD)
    }

    public func set(_ values: UInt64) throws(GPIOError) {
        let r = ht_gpio_set_values(requestFD, values & allMask, allMask)
        if r < 0 { throw .setFailed(errno: -r) }
    }

    /// Finds the chip device for a path or a label by asking each /dev/gpiochipN for its label.
    public static func resolve(chip: String) throws(GPIOError) -> String {
        if chip.hasPrefix("/") { return chip }
        for n in 0..<64 {
            let path = "/dev/gpiochip\(n)"
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            if fd < 0 { continue }
            defer { close(fd) }
            var labelBuffer = [CChar](repeating: 0, count: 33)
            var lines: UInt32 = 0
            if ht_gpio_chip_info(fd, &labelBuffer, &lines) == 0 {
                let label = String(decoding: labelBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if label == chip || "gpiochip\(n)" == chip { return path }
            }
        }
        throw .chipNotFound(chip)
    }
}
