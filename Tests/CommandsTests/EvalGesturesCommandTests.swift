import Testing

/// `eval gestures` through the built binary.
@Suite struct EvalGesturesCommandTests {
    typealias P = HeadtrackProcess

    @Test func evalGesturesCohortShowsProgressPerKind() {
        let r = P.run(["eval", "gestures", "--cohort", "1"])
        #expect(r.status == 0)
        #expect(r.stderr.contains("1/36 default detector, single nod (1 wearer)"))
        #expect(r.stderr.contains("36/36 classic detector, drawing shapes (1 wearer)"))
        #expect(!r.stdout.contains("1/36"))
        // Windows: every kind with the lead-in opening, then the gesture kinds mid-gesture, per detector.
        let windows = P.run(["eval", "gestures", "--cohort", "2", "--windows", "1"])
        #expect(windows.status == 0)
        #expect(windows.stderr.contains("23/44 classic detector, single nod (2 wearers)"))
        #expect(windows.stderr.contains("44/44 classic detector, shakes (2 wearers)"))
    }
}
