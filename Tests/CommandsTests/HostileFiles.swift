#if canImport(Glibc)
import Glibc
#endif
import Formats

/// What a hostile neighbour puts in a file (traces at rest with one cell or row of its choosing, a config naming a
/// device, terminal escapes) and how a test sees that none reached the terminal raw. Suites conform to share them.
protocol HostileFiles {}

extension HostileFiles {
    /// A 3 s trace at rest.
    func writeTrace(_ path: String, cell: String = "0") throws -> [UInt8] {
        var text = "# format: imu-trace v1\nt,ax,ay,az,gx,gy,gz\n"
        for k in 0..<300 { text += "\(Double(k) / 100),\(k == 150 ? cell : "0"),0,9.81,0,0,0\n" }
        try FileIO.writeAtomically(path, Array(text.utf8))
        return Array(text.utf8)
    }

    /// An OSC retitle and a screen clear. What a file said once reached the terminal raw, and a 10 MB value
    /// became a 10 MB error line.
    static var escape: String { "\u{1b}]0;PWNED\u{07}\u{1b}[2J" }

    func config(_ dir: String, device: String) throws -> String {
        let path = dir + "/config.json"
        try FileIO.writeAtomically(path, Array("{\"i2c\": {\"device\": \(JSONValue.quoted(device))}}".utf8))
        return path
    }

    func hasNoControlCharacters(_ s: String) -> Bool {
        !s.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
    }

    /// A 2 s trace at rest, with `row` (cells t,ax,ay,az,gx,gy,gz) inserted after the first second, and
    /// `last` appended at the end.
    func trace(in dir: String, inserting row: String? = nil, appending last: String? = nil,
               header: String = "t,ax,ay,az,gx,gy,gz") throws -> String {
        var text = "# format: imu-trace v1\n\(header)\n"
        for k in 0..<200 {
            if k == 100, let row { text += row + "\n" }
            text += "\(Double(k) / 100 + (k >= 100 && row != nil ? 0.001 : 0)),0,0,9.81,0,0,0\n"
        }
        if let last { text += last + "\n" }
        let path = dir + "/trace.csv"
        try FileIO.writeAtomically(path, Array(text.utf8))
        return path
    }
}
