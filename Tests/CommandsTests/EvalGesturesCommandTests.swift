import Testing
import TestSupport

/// `eval gestures` through the built binary.
@Suite struct EvalGesturesCommandTests {
    typealias P = HeadtrackProcess

    @Test func evalGesturesCohortShowsProgressPerKind() {
        let r = P.run(["eval", "gestures", "--cohort", "1"])
        #expect(r.status == 0)
        #expect(r.stderr.contains("1/38 default detector, single nod (1 wearer)"))
        #expect(r.stderr.contains("38/38 classic detector, walking, looking about (1 wearer)"))
        #expect(!r.stdout.contains("1/38"))
        // Windows: every kind with the lead-in opening, then the gesture kinds mid-gesture, per detector.
        let windows = P.run(["eval", "gestures", "--cohort", "2", "--windows", "1"])
        #expect(windows.status == 0)
        #expect(windows.stderr.contains("24/46 classic detector, single nod (2 wearers)"))
        #expect(windows.stderr.contains("46/46 classic detector, shakes (2 wearers)"))
    }
}

/// `eval gestures --cohort N --export DIR`: the cohort written as recordings, which `eval gestures DIR` then
/// scores as it scores the shared ones.
@Suite struct EvalGesturesExportCommandTests {
    typealias P = HeadtrackProcess

    @Test func theExportedCohortIsScoredLikeRecordings() {
        let dir = temporaryDirectory("cohort-export-cmd")
        let r = P.run(["eval", "gestures", "--cohort", "2", "--seed", "3", "--export", dir, "--kind", "single_nod"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("wrote 2 recordings"))
        #expect(r.stderr.contains("writing 1/1 single nod (2 wearers)"))
        #expect(directoryEntries(dir) == ["cohort_s3_w000_single_nod.csv", "cohort_s3_w000_single_nod.truth.json",
                                          "cohort_s3_w001_single_nod.csv", "cohort_s3_w001_single_nod.truth.json"])
        // The single nods answer a pending question: both found, as the cohort's own table says.
        let asked = P.run(["eval", "gestures", dir, "--mount", "trace", "--ask"])
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(asked.stdout.contains("recall 100.0 % (2/2), confusions 0"), "\(asked.stdout)")
    }

    @Test func exportMistakesAreUsageErrorsThatSayWhatToDo() {
        let missing = P.run(["eval", "gestures", "--cohort", "1", "--export", "/nonexistent-headtrack/dir"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no such directory; make it first (mkdir -p /nonexistent-headtrack/dir)"))
        let kindAlone = P.run(["eval", "gestures", "--cohort", "1", "--kind", "walking"])
        #expect(kindAlone.status == 2)
        #expect(kindAlone.stderr.contains("--kind works with --export only"))
        let unknownKind = P.run(["eval", "gestures", "--cohort", "1", "--export", "/tmp", "--kind", "juggling"])
        #expect(unknownKind.status == 2)
        let withWindows = P.run(["eval", "gestures", "--cohort", "1", "--export", "/tmp", "--windows", "1"])
        #expect(withWindows.status == 2)
        #expect(withWindows.stderr.contains("leave out --windows"))
        let onRecordings = P.run(["eval", "gestures", "/tmp", "--export", "/tmp"])
        #expect(onRecordings.status == 2)
        #expect(onRecordings.stderr.contains("--export and --kind work with --cohort N only"))
    }
}
