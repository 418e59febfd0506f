import Testing

/// `replay --explain` and `replay --ask` as a user runs them, on a recording of continuous nodding (the
/// headphone fixture, worn X back, Y up, Z left): the candidates' verdicts name their rules, and the events
/// are the same with or without the explanation.
@Suite struct ReplayExplainTests {
    static let nodding = HeadtrackProcess.repository + "/Tests/TrackingTests/Fixtures/st26_nod.csv"

    @Test func explainPrintsEachCandidateWithItsRulesAndChangesNoEvent() {
        let plain = HeadtrackProcess.run(["replay", Self.nodding, "--mount=-x,z,y"])
        let explained = HeadtrackProcess.run(["replay", Self.nodding, "--mount=-x,z,y", "--explain"])
        #expect(plain.status == 0 && explained.status == 0, "\(explained.stderr)")
        let verdicts = explained.stdout.split(separator: "\n").filter { $0.contains(" swings from ") }
        #expect(verdicts.contains { $0.contains("nod?") && $0.contains("taken") }, "\(explained.stdout.prefix(600))")
        // Each verdict line names the rules it measured, with their limits.
        #expect(verdicts.allSatisfy { $0.contains("lead-in") && $0.contains("≤ 2.00 s") }, "\(verdicts.prefix(3))")
        let events = { (text: String) in text.split(separator: "\n").filter { !$0.contains(" swings from ") } }
        #expect(events(explained.stdout) == events(plain.stdout))
    }

    @Test func askTakesSingleGesturesAndSaysSo() {
        let asked = HeadtrackProcess.run(["replay", Self.nodding, "--mount=-x,z,y", "--ask", "--json"])
        #expect(asked.status == 0)
        #expect(asked.stdout.contains("\"nod\":"), "\(asked.stdout.prefix(300))")
        let told = HeadtrackProcess.run(["replay", Self.nodding, "--mount=-x,z,y", "--ask"])
        #expect(told.stdout.contains("answer mode: a question pending throughout"), "\(told.stdout.suffix(200))")
    }
}
