#if canImport(Glibc)
import Glibc
#endif
import Testing
import Formats
import TestSupport
@testable import Commands

/// `--plot` end to end: the demo's picture holds every series, its three scripted gestures as truth bouts, and
/// a replay picks up the truth file beside its trace.
@Suite struct PlotCommandTests: InProcessCommands, HostileFiles {
    typealias P = HeadtrackProcess
    func temporary(_ name: String) -> String { "/tmp/headtrack-plot-test-\(getpid())-\(name)" }

    @Test func demoPlotHasEverySeriesAndTheScriptedGestures() throws {
        let path = temporary("demo.svg")
        defer { unlink(path) }
        #expect(run(["demo", "--speed", "0", "--plot", path]) == 0)
        let svg = try FileIO.readText(path)
        #expect(svg.hasPrefix("<?xml") && svg.hasSuffix("</svg>\n"))
        for id in ["raw-heading", "smoothed-heading", "roll", "pitch", "nod-rate", "shake-rate",
                   "gestures", "truth-bouts", "led-north", "led-status"] {
            #expect(svg.contains("id=\"\(id)\""), "no \(id) in the demo plot")
        }
        #expect(svg.contains("3 truth bouts"))
    }

    @Test func replayPlotReadsTheTruthFileBesideTheTrace() throws {
        let trace = temporary("t.csv"), truth = temporary("t.truth.json"), plot = temporary("t.svg")
        defer { unlink(trace); unlink(truth); unlink(plot) }
        var rows = "# format: imu-trace v1\nt,ax,ay,az,gx,gy,gz\n"
        for k in 0..<200 { rows += "\(Double(k) / 100),0,0,9.81,0,0,0\n" }
        try FileIO.writeAtomically(trace, Array(rows.utf8))
        try FileIO.writeAtomically(truth, Array("{\"events\": [{\"label\": \"nod\", \"t_start\": 0.5, \"t_end\": 1.2, \"cycles\": 2}]}".utf8))
        #expect(run(["replay", trace, "--plot", plot]) == 0)
        let svg = try FileIO.readText(plot)
        #expect(svg.contains("1 truth bout"))
        #expect(svg.contains("no valid heading in this recording"))
    }

    @Test func anUnwritablePlotPathFailsBeforeTheWork() {
        let r = P.run(["demo", "--speed", "0", "--plot", "/nonexistent/dir/x.svg"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("the directory /nonexistent/dir does not exist"))
        #expect(!r.stdout.contains("scripted gestures"))
        let dir = temporaryDirectory("first-use")
        let onDirectory = P.run(["replay", "x.csv", "--plot", dir])
        #expect(onDirectory.status == 2)
        #expect(onDirectory.stderr.contains("is a directory"))
    }

    @Test func thePlotCountsDisplayFramesNotSamples() throws {
        let dir = temporaryDirectory("first-use")
        let r = P.run(["demo", "--speed", "0", "--plot", dir + "/demo.svg"])
        #expect(r.status == 0)  // the story passes: exactly one nod and one shake
        let svg = P.read(dir + "/demo.svg")
        #expect(svg.contains(" display frames · "))
        #expect(!svg.contains(" samples · "))
        #expect(r.stdout.contains("IMU samples: "))
    }

    // Once an error said "…(ENOSPC) (disk full?) (is the directory there and writable?)".
    @Test func oneErrorCarriesOneHint() throws {
        let dir = temporaryDirectory("newuser")
        var text = "# format: imu-trace v1\nt,ax,ay,az,gx,gy,gz\n"
        for k in 0..<200 { text += "\(Double(k) / 100),0,0,9.81,0,0,0\n" }
        try FileIO.writeAtomically(dir + "/t.csv", Array(text.utf8))
        let r = P.run(["replay", dir + "/t.csv", "--plot", "/dev/full"])
        #expect(r.status == 1 && r.stderr.contains("(disk full?)"), "\(r.stderr)")
        #expect(!r.stderr.contains("writable?"), "\(r.stderr)")
    }

    // Once one gyro cell of 1e308 with --plot: 17 GB of ticks, then abort. No plot file is made.
    @Test func replayPlotOfAHugeGyroValueEndsWithAnError() throws {
        let dir = temporaryDirectory("hostile-cmd")
        let path = try trace(in: dir, inserting: "1.0005,0,0,9.81,1e308,0,0")
        #expect(run(["replay", path, "--plot", dir + "/p.svg"]) == 1)
        #expect(!FileIO.exists(dir + "/p.svg"))
    }

    // Once --plot onto a symlink replaced the link with a regular file.
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

    // Once --plot /dev/full as root said "plot written" and replaced the device node. Our own node, so
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
}
