import Testing
@testable import Formats

/// Truth files (`GestureTruth`): their times are checked like a trace's.
@Suite struct GestureTruthTests {
    /// Truth-file times are checked like trace times: 1e400 is infinity, and an infinite bout end would never
    /// be compared meaningfully with a detection.
    @Test func truthTimesOutOfRangeAreRefused() throws {
        for bad in ["1e400", "-1e400", "1e11"] {
            let text = "{\"events\": [{\"label\": \"nod\", \"t_start\": 0.5, \"t_end\": \(bad)}]}"
            #expect(throws: GestureTruthError.self, "t_end \(bad) accepted") { try GestureTruth.parse(text, path: "x.truth.json") }
        }
        #expect(try GestureTruth.parse(#"{"events": [{"label": "nod", "t_start": 0.5, "t_end": 1.5}]}"#).bouts.count == 1)
    }
}
