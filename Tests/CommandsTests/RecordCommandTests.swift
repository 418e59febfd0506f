import Formats
import Testing
import TestSupport

/// `record --simulated` through the built binary: the duration is recorded time, and a full disk is named.
@Suite struct RecordCommandTests: InProcessCommands {
    typealias P = HeadtrackProcess

    @Test func recordDurationIsTheRecordedTime() throws {
        let dir = temporaryDirectory("first-use")
        let trace = dir + "/r.csv"
        let r = P.run(["record", "--simulated", "--duration", "3", "--out", trace])
        #expect(r.status == 0)
        // 3 s at the default 200 Hz IMU rate.
        #expect(r.stdout.contains("wrote 600 samples"))
        let rows = P.read(trace).split(separator: "\n").filter { $0.first?.isNumber == true }
        #expect(rows.count == 600)
    }

    // Once `record --out /dev/full` said "bad file descriptor (EBADF)": close() flushed again after the failure.
    @Test func aFullDiskIsReportedAsSuch() {
        let r = HeadtrackProcess.run(["record", "--simulated", "--duration", "5", "--out", "/dev/full"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("ENOSPC") && !r.stderr.contains("EBADF"), "\(r.stderr)")
    }

    // Once `record --out existing.csv` without an I²C bus truncated the file to 0 bytes.
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
}
