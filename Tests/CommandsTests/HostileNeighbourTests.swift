#if canImport(Glibc)
import Glibc
#endif
import Formats
import Testing
import TestSupport

/// The loop and the data against a hostile neighbour, end to end through the binary: an output that is the input, a full
/// disk, and terminal escapes in what a file says. Each used to destroy a recording, misreport the error or
/// reach the user's terminal.
@Suite struct HostileNeighbourTests {
    /// A 3 s trace at rest.
    func writeTrace(_ path: String, cell: String = "0") throws -> [UInt8] {
        var text = "# format: imu-trace v1\nt,ax,ay,az,gx,gy,gz\n"
        for k in 0..<300 { text += "\(Double(k) / 100),\(k == 150 ? cell : "0"),0,9.81,0,0,0\n" }
        try FileIO.writeAtomically(path, Array(text.utf8))
        return Array(text.utf8)
    }

    // Item 3: `replay rec.csv --events rec.csv` replaced the recording with a 3-line table and exited 0.
    @Test(arguments: ["events", "attitude", "plot"])
    func anOutputThatIsTheInputIsRefusedAndNothingIsWritten(option: String) throws {
        let dir = temporaryDirectory("neighbour")
        let trace = dir + "/rec.csv"
        let original = try writeTrace(trace)
        let r = HeadtrackProcess.run(["replay", trace, "--\(option)", trace])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("--\(option) \(trace)") && r.stderr.contains("the trace \(trace)"), "\(r.stderr)")
        #expect(try FileIO.read(trace) == original, "the recording was changed")
    }

    @Test func theSameFileThroughASymlinkOrStandardInputIsRefused() throws {
        let dir = temporaryDirectory("neighbour")
        let trace = dir + "/rec.csv"
        let original = try writeTrace(trace)
        #expect(symlink(trace, dir + "/link.csv") == 0)
        let viaLink = HeadtrackProcess.run(["replay", dir + "/link.csv", "--events", trace])
        #expect(viaLink.status == 2 && viaLink.stderr.contains("the trace \(dir)/link.csv"), "\(viaLink.stderr)")
        let linkOut = HeadtrackProcess.run(["replay", trace, "--attitude", dir + "/link.csv"])
        #expect(linkOut.status == 2, "\(linkOut.stderr)")
        let stdin = HeadtrackProcess.run(["replay", "-", "--plot", trace], stdin: trace)
        #expect(stdin.status == 2 && stdin.stderr.contains("the trace - (standard input)"), "\(stdin.stderr)")
        #expect(try FileIO.read(trace) == original)
        // Another file is fine.
        let other = HeadtrackProcess.run(["replay", trace, "--events", dir + "/events.csv"])
        #expect(other.status == 0, "\(other.stderr)")
    }

    // Item 4: `record --out /dev/full` said "bad file descriptor (EBADF)": close() flushed again after the failure.
    @Test func aFullDiskIsReportedAsSuch() {
        let r = HeadtrackProcess.run(["record", "--simulated", "--duration", "5", "--out", "/dev/full"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("ENOSPC") && !r.stderr.contains("EBADF"), "\(r.stderr)")
    }

    @Test func theWriterReportsItsFirstErrorAndNeverWritesAClosedDescriptor() throws {
        let w = try BufferedFileWriter(path: "/dev/full")
        var first: FileError? = nil
        do {
            for _ in 0..<200 { try w.write(String(repeating: "x", count: 1000) + "\n") }
        } catch { first = error }
        #expect(first?.message.contains("ENOSPC") == true, "\(String(describing: first))")
        do { try w.close(); Issue.record("close after a failed write succeeded") } catch {
            #expect(error.message.contains("ENOSPC") && !error.message.contains("EBADF"), "\(error.message)")
        }
    }

    // Item 5: what a file says reached the terminal raw (an OSC retitle, a screen clear), and a 10 MB value
    // became a 10 MB error line.
    static let escape = "\u{1b}]0;PWNED\u{07}\u{1b}[2J"

    func config(_ dir: String, device: String) throws -> String {
        let path = dir + "/config.json"
        try FileIO.writeAtomically(path, Array("{\"i2c\": {\"device\": \(JSONValue.quoted(device))}}".utf8))
        return path
    }

    func hasNoControlCharacters(_ s: String) -> Bool {
        !s.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
    }

    @Test func aConfigValueWithTerminalEscapesIsShownEscaped() throws {
        let dir = temporaryDirectory("neighbour")
        let r = HeadtrackProcess.run(["probe", "--config", try config(dir, device: "/dev/" + Self.escape)])
        #expect(r.status == 1)
        #expect(hasNoControlCharacters(r.stderr), "\(Array(r.stderr.utf8.prefix(200)))")
        #expect(r.stderr.contains("\\u{1b}]0;PWNED\\u{7}\\u{1b}[2J"), "\(r.stderr)")
    }

    @Test func aTenMegabyteConfigValueIsCutWithItsLength() throws {
        let dir = temporaryDirectory("neighbour")
        let device = "/dev/" + String(repeating: "i", count: 10_000_000)
        let r = HeadtrackProcess.run(["probe", "--config", try config(dir, device: device)])
        #expect(r.status == 1)
        #expect(r.stderr.utf8.count < 2000, "\(r.stderr.utf8.count) bytes of error")
        #expect(r.stderr.contains("(10000005 bytes)"), "\(r.stderr.prefix(300))")
    }

    @Test func aTraceCellWithTerminalEscapesIsShownEscaped() throws {
        let dir = temporaryDirectory("neighbour")
        _ = try writeTrace(dir + "/t.csv", cell: Self.escape)
        let r = HeadtrackProcess.run(["replay", dir + "/t.csv"])
        #expect(r.status == 1)
        #expect(hasNoControlCharacters(r.stderr), "\(Array(r.stderr.utf8.prefix(200)))")
        #expect(r.stderr.contains("\\u{1b}]0;PWNED"), "\(r.stderr)")
        _ = try writeTrace(dir + "/long.csv", cell: String(repeating: "9x", count: 1_000_000))
        let r2 = HeadtrackProcess.run(["replay", dir + "/long.csv"])
        #expect(r2.status == 1 && r2.stderr.utf8.count < 2000 && r2.stderr.contains("(2000000 bytes)"), "\(r2.stderr.prefix(300))")
    }
}
