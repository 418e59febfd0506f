/// A fixed set of output lines (LEDs), addressed by index 0..<count in the order they were requested.
public protocol OutputLines {
    /// Sets every line at once: bit i of `values` drives line i.
    mutating func set(_ values: UInt64) throws(GPIOError)
    var count: Int { get }
    /// What drives the lines, for the log ("/dev/gpiochip0 (pinctrl-bcm2711) lines 17,27").
    var name: String { get }
}

extension OutputLines {
    public var name: String { "\(count) output lines" }
}

public enum GPIOError: Error, Equatable, Sendable, CustomStringConvertible {
    case chipNotFound(String)
    case cannotOpen(path: String, errno: Int32)
    case requestFailed(chip: String, offsets: [UInt32], errno: Int32)
    case lineOutOfRange(chip: String, offset: UInt32, lines: UInt32)
    case setFailed(errno: Int32)

    public var description: String {
        switch self {
        case let .chipNotFound(s):
            return "no GPIO chip matches '\(s)': give a path (/dev/gpiochip0) or a label (pinctrl-rp1 on a Pi 5, pinctrl-bcm2711 on a Pi 4, pinctrl-bcm2835 on a Pi 3 or Zero 2 W); `ls /dev/gpiochip*` lists them"
        case let .cannotOpen(p, e):
            if e == 13 { return "no permission to open \(p): add the user to the 'gpio' group" }
            return "cannot open \(p): \(describeErrno(e))"
        case let .requestFailed(c, o, e):
            if e == 16 { return "GPIO lines \(o) on \(c) are busy: another program (or a device-tree overlay) holds them" }
            return "cannot request GPIO lines \(o) on \(c) as outputs: \(describeErrno(e))"
        case let .lineOutOfRange(c, o, n):
            return "GPIO line \(o) does not exist on \(c), which has \(n) lines: check the pin numbers in the config"
        case let .setFailed(e):
            return "setting GPIO values failed: \(describeErrno(e))"
        }
    }
}
