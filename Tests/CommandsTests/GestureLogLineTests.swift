#if canImport(Glibc)
import Glibc
#endif
import Gestures
import Formats
import Testing
@testable import Commands
import Service

/// `run`'s gesture line is formatted into a fixed buffer on the loop thread instead of a String. The truth is
/// the line the String formatting gives (what `demo`, `watch` and the stream test read), read back from a pipe.
@Suite struct GestureLogLineTests {
    func written(_ e: GestureEvent, _ t: Double, journal: Bool) throws -> String {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]) }
        Log.gesture(e, at: t, into: LineBuffer(capacity: 64), journal: journal, fd: fds[1])
        close(fds[1])
        var bytes = [UInt8](repeating: 0, count: 256)
        let n = read(fds[0], &bytes, bytes.count)
        return String(decoding: bytes[0..<max(n, 0)], as: UTF8.self)
    }

    @Test(arguments: [0.0, 0.004, 0.005, 1.5, 12.345, 59.999, 3600.125, 86_400.994])
    func theLineIsTheOneTheStringFormattingGives(t: Double) throws {
        for e in GestureEvent.allCases {
            #expect(try written(e, t, journal: false) == "t=\(fixed(t, 2))s gesture: \(e.rawValue)\n")
            // Under systemd each line carries its syslog priority (info).
            #expect(try written(e, t, journal: true) == "<6>t=\(fixed(t, 2))s gesture: \(e.rawValue)\n")
        }
    }

    /// The same lines written out by hand, so a rounding fault shared by both formatters cannot hide.
    @Test(arguments: [(1.5, "t=1.50s gesture: nod\n"), (0.004, "t=0.00s gesture: nod\n"),
                      (59.999, "t=60.00s gesture: nod\n"), (7.126, "t=7.13s gesture: nod\n"),
                      (86_400.994, "t=86400.99s gesture: nod\n")])
    func theLineIsTheOneWrittenByHand(t: Double, line: String) throws {
        #expect(try written(.nod, t, journal: false) == line)
        #expect(try written(.nod, t, journal: true) == "<6>" + line)
    }
}
