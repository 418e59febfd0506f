import Testing

/// `eval attitude` through the built binary.
@Suite struct EvalAttitudeCommandTests {
    typealias P = HeadtrackProcess

    @Test func evalAttitudeShowsProgressPerTrial() {
        let fixture = P.repository + "/Tests/EvaluationTests/Fixtures/broad_01_slow_rotation_excerpt.csv"
        let r = P.run(["eval", "attitude", fixture, "--mode", "both"])
        #expect(r.status == 0)
        #expect(r.stderr.contains("1/2 broad_01_slow_rotation_excerpt (9D)"))
        #expect(r.stderr.contains("2/2 broad_01_slow_rotation_excerpt (6D)"))
        #expect(!r.stdout.contains("1/2"))
    }
}
