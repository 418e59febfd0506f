#if canImport(Glibc)
import Glibc
#endif
import Formats
@testable import Commands
import Testing
import TestSupport

/// `replay`: `-` for standard input and output, an output that is its own input, what a trace's cells may say
/// to the terminal, hostile traces and mounts, a paced replay across the whole time range, and the JSON summary.
@Suite struct ReplayCommandTests: HostileFiles, InProcessCommands {
    typealias P = HeadtrackProcess

    @Test func aDashMeansStandardOutputAndStandardInput() throws {
        let dir = temporaryDirectory("first-use")
        let trace = dir + "/r.csv"
        #expect(P.run(["record", "--simulated", "--duration", "1", "--out", trace]).status == 0)
        let r = P.run(["replay", trace, "--events", "-"], directory: dir)
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("t,event\n"))
        #expect(r.stderr.contains("200 samples"))
        #expect(access(dir + "/-", F_OK) != 0)  // no file named "-"
        let fromStdin = P.run(["replay", "-"], stdin: trace)
        #expect(fromStdin.status == 0)
        #expect(fromStdin.stdout.contains("200 samples"))
    }

    // Once `replay - </dev/null` said "/dev/stdin: empty…".
    @Test func standardInputIsCalledThat() {
        let r = P.run(["replay", "-"], stdin: "/dev/null")
        #expect(r.status == 1 && r.stderr.contains("standard input") && !r.stderr.contains("/dev/stdin"), "\(r.stderr)")
    }

    // Once `replay rec.csv --events rec.csv` replaced the recording with a 3-line table and exited 0.
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

    // A window cell of 1e19 in replay, calibrate --trace and eval.
    @Test func windowCellOf1e19EndsWithAnError() throws {
        let dir = temporaryDirectory("hostile-cmd")
        let path = try trace(in: dir, header: "t,ax,ay,az,gx,gy,gz")
        let text = try FileIO.readText(path)
        let windowed = text.split(separator: "\n").enumerated().map { i, line in
            i == 0 ? String(line) : i == 1 ? line + ",window" : line + (i == 50 ? ",1e19" : ",1")
        }.joined(separator: "\n") + "\n"
        try FileIO.writeAtomically(path, Array(windowed.utf8))
        #expect(run(["replay", path]) == 1)
        #expect(run(["calibrate", "--trace", path, "--skip-gyro", "--out", dir + "/cal.json"]) == 1)
        #expect(!FileIO.exists(dir + "/cal.json"))
    }

    // Once t = 1e15 made replay spin for ever (t + 1/60 == t).
    @Test func replayOfAHugeTimestampEndsWithAnError() throws {
        let dir = temporaryDirectory("hostile-cmd")
        // Last, so that the rows before it are in order and only the time itself can be wrong.
        #expect(run(["replay", try trace(in: dir, appending: "1e15,0,0,9.81,0,0,0")]) == 1)
    }

    // Once --mount with NaN was accepted and every attitude row and gesture disappeared.
    @Test func nanMountIsRefused() throws {
        let dir = temporaryDirectory("hostile-cmd")
        let path = try trace(in: dir)
        #expect(run(["replay", path, "--mount", "nan,0,0,0,1,0,0,0,1"]) == 2)
        #expect(run(["replay", path, "--mount", "1,0,0,0,1,0,0,0,1"]) == 0)
    }

    // Through the command: a header naming t twice, and a cell with a NUL.
    @Test func malformedTraceCellsAndHeadersEndWithAnError() throws {
        let dir = temporaryDirectory("hostile-cmd")
        #expect(run(["replay", try trace(in: dir, header: "t,ax,ay,az,gx,gy,t")]) == 1)
        #expect(run(["replay", try trace(in: dir, inserting: "1.0005,0,0,9.81,0.5\u{0}JUNK,0,0")]) == 1)
    }

    /// A trace may span TraceFile.maxTime (±1e10 s). Paced for the stream, its 9.9e9 s gap used to become
    /// 9.9e18 ns past the start (a trap in Nanoseconds arithmetic), or a sleep for the gap's length; paced
    /// as Replay ticks, the gap is skipped and the replay ends normally with every sample counted.
    @Test func pacedReplaySkipsAGapOfTheWholeTimeRange() throws {
        var text = "# format: imu-trace v1\nt,ax,ay,az,gx,gy,gz\n"
        for k in 0..<30 { text += "\(Double(k) / 100),0,0,9.81,0,0,0\n" }
        for k in 0..<30 { text += "\(9.9e9 + Double(k) / 100),0,0,9.81,0,0,0\n" }
        let id = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let path = "/tmp/headtrack-gap-\(id).csv", socket = "/tmp/headtrack-gap-\(id).sock"
        defer { unlink(path) }
        try FileIO.writeAtomically(path, Array(text.utf8))
        let r = HeadtrackProcess.run(["replay", path, "--json", "--socket", socket])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try JSONParser.parse(r.stdout)["samples"] == .number(60))
    }

    @Test func replayJSONSummaryCountsEveryKind() throws {
        let text = ReplayCommand.jsonSummary(trace: "a \"b\".csv", samples: 1234, counts: ["nod": 2, "shake": 1],
                                             events: [(1.5, .nod), (3.25, .shake), (7, .nod)])
        let v = try JSONParser.parse(text)
        #expect(v["trace"] == .string("a \"b\".csv"))
        #expect(v["samples"] == .number(1234))
        #expect(v["gestures"]?["nod"] == .number(2))
        #expect(v["gestures"]?["left"] == .number(0))
        guard case let .array(events)? = v["events"] else { Issue.record("no events"); return }
        #expect(events.count == 3)
        #expect(events[1]["t"] == .number(3.25) && events[1]["gesture"] == .string("shake"))
    }
}
