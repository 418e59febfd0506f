#if canImport(Glibc)
import Glibc
#endif
import Fusion
import Geometry
import Formats
import Service
import Testing
@testable import Commands
import TestSupport

/// Hostile command lines, end to end: each used to trap, hang, replace a device or a
/// link, or destroy a file; each must now end with a short error and a non-zero status, or do the right thing.
@Suite struct HostileCommandTests: InProcessCommands {
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

    // Row 1: `run` decodes the calibration file at start; a sample count of 1e19 trapped and systemd
    // restarted it every 2 s. The daemon's loader must run uncalibrated instead.
    @Test func daemonCalibrationLoaderSurvivesAnOutOfRangeFile() throws {
        let dir = temporaryDirectory("hostile-cmd")
        let path = dir + "/calibration.json"
        let text = """
            {"version": 1, "gyroBias": [0.01, 0, 0],
             "magnetometer": {"hardIron": [10, -20, 30], "softIron": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]},
             "magnetometerFit": {"fieldStrength": 48, "relativeResidual": 0.01, "coverage": 0.8, "samples": 1e19}}
            """
        try FileIO.writeAtomically(path, Array(text.utf8))
        let start = StartingCalibration.guided(path)
        #expect(start.calibration == .none)
        #expect(start.notes.count == 1, "the daemon says once why it runs uncalibrated: \(start.notes)")
        // `calibrate --show` reports it as an error instead of trapping.
        #expect(run(["calibrate", "--show", "--out", path]) == 1)
    }

    // Row 2: a window cell of 1e19 in replay, calibrate --trace and eval.
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

    // Row 3: `demo --speed 1e-15` overflowed Int64 in the virtual clock.
    @Test func absurdDemoSpeedsAreRefused() {
        #expect(run(["demo", "--speed", "1e-15"]) == 2)
        #expect(run(["demo", "--speed", "1e300"]) == 2)
        #expect(run(["demo", "--speed", "-1"]) == 2)
    }

    // Row 4: t = 1e15 made replay spin for ever (t + 1/60 == t).
    @Test func replayOfAHugeTimestampEndsWithAnError() throws {
        let dir = temporaryDirectory("hostile-cmd")
        // Last, so that the rows before it are in order and only the time itself can be wrong.
        #expect(run(["replay", try trace(in: dir, appending: "1e15,0,0,9.81,0,0,0")]) == 1)
    }

    // Row 5: one gyro cell of 1e308 with --plot: 17 GB of ticks, then abort. No plot file is made.
    @Test func replayPlotOfAHugeGyroValueEndsWithAnError() throws {
        let dir = temporaryDirectory("hostile-cmd")
        let path = try trace(in: dir, inserting: "1.0005,0,0,9.81,1e308,0,0")
        #expect(run(["replay", path, "--plot", dir + "/p.svg"]) == 1)
        #expect(!FileIO.exists(dir + "/p.svg"))
    }

    // Row 7: `record --out existing.csv` without an I²C bus truncated the file to 0 bytes.
    @Test func recordWithoutABusLeavesTheExistingFileAlone() throws {
        let dir = temporaryDirectory("hostile-cmd")
        let out = dir + "/existing.csv"
        let precious = Array("# format: imu-trace v1\nt,ax,ay,az,gx,gy,gz\n0,0,0,9.81,0,0,0\n".utf8)
        try FileIO.writeAtomically(out, precious)
        #expect(run(["record", "--out", out, "--i2c", dir + "/no-such-i2c", "--duration", "1"]) == 1)
        #expect(try FileIO.read(out) == precious)
        #expect(directoryEntries(dir) == ["existing.csv"])
    }

    /// A simulated recording goes through the temporary and replaces the file only when complete.
    @Test func recordReplacesTheFileWhenDone() throws {
        let dir = temporaryDirectory("hostile-cmd")
        let out = dir + "/rec.csv"
        try FileIO.writeAtomically(out, Array("old".utf8))
        #expect(run(["record", "--simulated", "--out", out, "--duration", "2"]) == 0)
        let trace = try TraceFile.read(path: out)
        #expect(trace.records.count > 100)
        #expect(directoryEntries(dir) == ["rec.csv"])
    }

    // Row 8: --plot onto a symlink replaced the link with a regular file.
    @Test func plotThroughASymlinkWritesItsTarget() throws {
        let dir = temporaryDirectory("hostile-cmd")
        try FileIO.writeAtomically(dir + "/real.svg", Array("old".utf8))
        #expect(symlink("real.svg", dir + "/link.svg") == 0)
        #expect(run(["demo", "--speed", "0", "--plot", dir + "/link.svg"]) == 0)
        var st = stat()
        #expect(lstat(dir + "/link.svg", &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK, "the link was replaced")
        #expect(try FileIO.readText(dir + "/real.svg").hasPrefix("<?xml"))
        #expect(directoryEntries(dir) == ["link.svg", "real.svg"])
    }

    // Row 8: --plot /dev/full as root said "plot written" and replaced the device node. Our own node, so
    // that the old code, run as root, does not replace the machine's /dev/full.
    @Test(.enabled(if: canMakeDeviceNodes, "needs CAP_MKNOD (root) to make its own full device"))
    func plotOntoAFullDeviceFailsAndKeepsTheDevice() throws {
        let dir = temporaryDirectory("hostile-cmd")
        try #require(mknod(dir + "/full", S_IFCHR | 0o666, 0x107) == 0)  // char 1,7
        #expect(run(["demo", "--speed", "0", "--plot", dir + "/full"]) == 1)
        var st = stat()
        #expect(lstat(dir + "/full", &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR, "the device was replaced")
        #expect(directoryEntries(dir) == ["full"])
    }

    // Row 9: --mount with NaN was accepted and every attitude row and gesture disappeared.
    @Test func nanMountIsRefused() throws {
        let dir = temporaryDirectory("hostile-cmd")
        let path = try trace(in: dir)
        #expect(run(["replay", path, "--mount", "nan,0,0,0,1,0,0,0,1"]) == 2)
        #expect(run(["replay", path, "--mount", "1,0,0,0,1,0,0,0,1"]) == 0)
    }

    // Row 11 through the command: a header naming t twice, and a cell with a NUL.
    @Test func malformedTraceCellsAndHeadersEndWithAnError() throws {
        let dir = temporaryDirectory("hostile-cmd")
        #expect(run(["replay", try trace(in: dir, header: "t,ax,ay,az,gx,gy,t")]) == 1)
        #expect(run(["replay", try trace(in: dir, inserting: "1.0005,0,0,9.81,0.5\u{0}JUNK,0,0")]) == 1)
    }

    // Options are range-checked before they become deadlines or counts.
    @Test func outOfRangeOptionsAreRefused() {
        let never = temporaryDirectory("hostile-cmd") + "/never.csv"
        #expect(run(["record", "--out", never, "--duration", "1e19"]) == 2)
        #expect(run(["run", "--simulated", "--duration", "1e19"]) == 2)
        #expect(run(["calibrate", "--duration", "-5"]) == 2)
        #expect(run(["bench", "--runs", "1.5"]) == 2)
        #expect(!FileIO.exists(never))
    }

    // Command-line numbers are plain decimals: "0x10" was read as 16 s, and the refusal of a duration below the
    // real minimum (0.001 s) said "above 0", which 0.0001 is.
    @Test func numbersAreDecimalAndRefusalsStateTheRealRange() {
        for text in ["0x10", "0x1p4", "inf", "nan", "1e", "--1", "1.2.3", " 1", "1_000", ""] {
            #expect(CommandLineNumber.parse(text) == nil, "\(text)")
        }
        for (text, value) in [("16", 16.0), ("0.5", 0.5), (".25", 0.25), ("1e-3", 0.001), ("+2", 2), ("-5", -5), ("3.", 3)] {
            #expect(CommandLineNumber.parse(text) == value, "\(text)")
        }
        let hex = HeadtrackProcess.run(["run", "--simulated", "--duration", "0x10"])
        #expect(hex.status == 2)
        #expect(hex.stderr.contains("--duration expects a decimal number"), "\(hex.stderr)")
        let tiny = HeadtrackProcess.run(["run", "--simulated", "--duration", "0.0001"])
        #expect(tiny.status == 2)
        #expect(tiny.stderr.contains("from 0.001 up to a year"), "\(tiny.stderr)")
    }
}
