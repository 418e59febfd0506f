import Testing
import TestSupport

/// `record --simulated` through the built binary: the duration is recorded time, and a full disk is named.
@Suite struct RecordCommandTests {
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

    // `record --out /dev/full` said "bad file descriptor (EBADF)": close() flushed again after the failure.
    @Test func aFullDiskIsReportedAsSuch() {
        let r = HeadtrackProcess.run(["record", "--simulated", "--duration", "5", "--out", "/dev/full"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("ENOSPC") && !r.stderr.contains("EBADF"), "\(r.stderr)")
    }
}
