import Formats
import TestSupport
import Testing
@testable import Commands

/// The command line's contract: bad input gives a clear message and a non-zero exit, never a crash.
@Suite struct CommandLineTests: InProcessCommands {
    @Test func everyCommandHasHelp() {
        for c in HeadtrackCommand.commands {
            #expect(run([c.name, "--help"]) == 0)
            #expect(c.help.contains("usage: headtrack \(c.name)"))
        }
    }

    @Test func unknownCommandAndOptionFail() {
        #expect(run(["fly"]) == 2)
        #expect(run(["demo", "--sped", "3"]) == 2)
        #expect(run(["replay"]) == 2)
        #expect(run(["replay", "a.csv", "--mount", "x,x,z"]) == 2)
    }

    /// `run --imu-hz` overrides `rates.imuHz` and is held to the same range (10...1000).
    @Test func imuRateOptionHasTheConfigRange() {
        #expect(run(["run", "--simulated", "--imu-hz", "1000.5", "--duration", "0"]) == 2)
        #expect(run(["run", "--simulated", "--imu-hz", "9.5", "--duration", "0"]) == 2)
        #expect(RunCommand.help.contains("IMU sample rate, 10...1000"))
    }

    @Test func missingBusIsAClearError() {
        #expect(run(["probe", "--i2c", "/dev/i2c-99"]) == 1)
        #expect(run(["run", "--i2c", "/dev/i2c-99", "--config", "/nonexistent.json"]) == 1)
    }

    @Test func unreadableAndMalformedTracesFail() throws {
        #expect(run(["replay", "/nonexistent/trace.csv"]) == 1)
        let path = "/tmp/headtrack-test-malformed-\(UInt32.random(in: 0...UInt32.max)).csv"
        let text = "# format: imu-trace v1\nt,ax,ay,az,gx,gy,gz\n0,0,0,9.8,0,0,0\n0.1,0,0,9.8,0,oops,0\n"
        let f = try #require(fopen(path, "w"))
        fputs(text, f)
        fclose(f)
        defer { unlink(path) }
        #expect(run(["replay", path]) == 1)
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
}

#if canImport(Glibc)
import Glibc
#endif
