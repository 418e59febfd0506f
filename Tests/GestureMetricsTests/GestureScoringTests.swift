import Gestures
import Formats
import Geometry
import Testing
@testable import GestureMetrics

/// The scoring rule of the shared recordings, on hand-made detections: a detection hits a same-label bout in
/// [start − 0.3 s, end + 1.0 s]; each bout once; repeats inside a hit bout are ignored; anything else is false.
@Suite struct GestureScoringTests {
    let bouts = [GestureBout(label: "nod", start: 10, end: 12), GestureBout(label: "shake", start: 20, end: 21)]

    func score(_ d: [(Double, GestureEvent)], truth: [GestureBout]? = nil, duration: Double = 60) -> GestureScore {
        GestureScore(detections: d.map { GestureDetection(t: $0.0, event: $0.1) }, truth: truth ?? bouts, duration: duration)
    }

    @Test func windowEdgesCount() {
        let s = score([(9.7, .nod), (22.0, .shake)])
        #expect(s.hits == 2 && s.falseDetections == 0)
        #expect(s.latencies == [9.7 - 10, 22.0 - 20])
    }

    @Test func justOutsideTheWindowIsFalse() {
        let s = score([(9.69, .nod), (22.01, .shake)])
        #expect(s.hits == 0 && s.misses == 2 && s.falseDetections == 2 && s.confusions == 0)
    }

    @Test func repeatsInsideAHitBoutAreNeitherHitsNorErrors() {
        let s = score([(10.5, .nod), (11.2, .nod), (12.9, .nod)])
        #expect(s.hits == 1 && s.falseDetections == 0 && s.misses == 1)
        #expect(s.latencies == [0.5])
    }

    @Test func theWrongLabelInsideABoutIsAFalseDetectionAndAConfusion() {
        let s = score([(10.5, .shake), (20.5, .shake)])
        #expect(s.hits == 1 && s.falseDetections == 1 && s.confusions == 1)
    }

    @Test func flicksAreCountedApart() {
        let s = score([(5, .up), (10.5, .nod), (30, .left)])
        #expect(s.flicks == 2 && s.falseDetections == 0 && s.hits == 1)
    }

    @Test func falseDetectionsPerMinuteOnlyOnRecordingsWithoutGestures() {
        let quiet = score([(5, .nod), (25, .shake)], truth: [], duration: 120)
        #expect(quiet.quietFalsePerMinute == 1.0)
        let busy = score([(5, .nod)])
        #expect(busy.quietFalsePerMinute == nil)
        let total = quiet + busy
        #expect(total.falseDetections == 3 && total.quietFalseDetections == 2 && total.quietFalsePerMinute == 1.0)
    }

    @Test func latencyPercentilesInterpolate() {
        #expect(percentile([4, 1, 3, 2], 0.5) == 2.5)
        #expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 0.9) == 10)
        #expect(percentile([], 0.5) == nil)
    }

    @Test func truthFilesParse() throws {
        let t = try GestureTruth.parse(#"{"events": [{"label": "shake", "t_start": 3.5, "t_end": 4, "cycles": 3}, {"label": "nod", "t_start": 1, "t_end": 2}]}"#)
        #expect(t.bouts == [GestureBout(label: "nod", start: 1, end: 2), GestureBout(label: "shake", start: 3.5, end: 4)])
        #expect(throws: GestureTruthError.self) { try GestureTruth.parse(#"{"bouts": []}"#) }
        #expect(GestureTruth.path(forTrace: "data/st26_nod.csv") == "data/st26_nod.truth.json")
    }

    /// The report's "mount" is what `--mount` reads back, also for a mount that is no axis form (a learned one,
    /// a few degrees askew): it once wrote "(0.1 0.2 0.3)" triples that no option could read.
    @Test func theReportsMountReadsBackAsAMountOption() throws {
        let askew = try #require(Mount(up: Vector3(0.1, 0.05, 1), left: Vector3(0, 1, 0.1)))
        #expect(!askew.isAxisForm)
        for mount in [askew, try Mount(parsing: "-x,z,y")] {
            var evaluation = GestureEvaluation()
            evaluation.mount = mount
            let report = try JSONParser.parse(GestureReport.json([], evaluation: evaluation))
            guard case let .string(text)? = report["mount"] else { Issue.record("no mount in \(report)"); continue }
            let back = try Mount(parsing: text)
            #expect(back.angle(to: mount) < 1e-3, "\(text) reads back \(back.argument), \(back.angle(to: mount)) rad off")
            // An axis mount keeps the text it has always had, the way it is typed on the command line.
            if mount.isAxisForm { #expect(text == "-x,z,y") } else { #expect(text.split(separator: ",").count == 9) }
        }
    }
}
