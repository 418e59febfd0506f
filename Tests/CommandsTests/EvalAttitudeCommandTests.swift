import Testing

/// `eval attitude`: its usage errors, and its progress per trial as the built binary prints it.
@Suite struct EvalAttitudeCommandTests: InProcessCommands {
    typealias P = HeadtrackProcess

    @Test func evalAttitudeShowsProgressPerTrial() {
        let fixture = P.repository + "/Tests/EvaluationTests/Fixtures/broad_01_slow_rotation_excerpt.csv"
        let r = P.run(["eval", "attitude", fixture, "--mode", "both"])
        #expect(r.status == 0)
        #expect(r.stderr.contains("1/2 broad_01_slow_rotation_excerpt (9D)"))
        #expect(r.stderr.contains("2/2 broad_01_slow_rotation_excerpt (6D)"))
        #expect(!r.stdout.contains("1/2"))
    }

    @Test func evalAttitudeOptions() {
        #expect(lab(["eval", "attitude", "--help"]) == 0)
        #expect(lab(["eval", "attitude"]) == 2)
        #expect(lab(["eval", "attitude", "--mode", "12d", "--synthetic"]) == 2)
        #expect(lab(["eval", "attitude", "/nonexistent/trial.csv"]) == 1)
    }
}
