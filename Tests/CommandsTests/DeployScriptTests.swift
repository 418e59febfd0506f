import Testing

/// `deploy/deploy.sh`, as a user reads its help.
@Suite struct DeployScriptTests {
    typealias P = HeadtrackProcess

    @Test func deployHelpDoesNotRecommendTheUnverifiedSDK() {
        let r = P.run(executable: "/bin/bash", [P.repository + "/deploy/deploy.sh", "--help"])
        #expect(r.status == 0)
        #expect(!r.stdout.contains("e.g. aarch64-swift-linux-musl"))
        #expect(r.stdout.contains("unverified"))
    }
}
