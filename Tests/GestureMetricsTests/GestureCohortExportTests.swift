import TestSupport
import Formats
import Cohorts
import Testing
@testable import GestureMetrics

/// `eval gestures --cohort N --export DIR`: a cohort trial written as a recording is the same trial when the
/// recordings' path reads it back. The truth is the cohort's own path (`GestureCohortEvaluation.detections`),
/// which never touches a file.
@Suite struct GestureCohortExportTests {
    static let cohort = GestureCohort(wearers: 3, seed: 5)

    @Test(arguments: [CohortKind.singleNod, .shakes, .keyGlance, .slips])
    func aWrittenTrialReplaysAsTheCohortScoresIt(kind: CohortKind) throws {
        let directory = temporaryDirectory("cohort-export")
        let export = GestureCohortExport(cohort: Self.cohort)
        let paths = try export.write(kinds: [kind], to: directory)
        #expect(paths.count == Self.cohort.wearers)
        let listening = RecognizerUnderTest(listening: true)
        var fromFiles = GestureEvaluation(recognizer: listening)
        fromFiles.mountFromTrace = true
        let inMemory = GestureCohortEvaluation(cohort: Self.cohort, recognizer: listening)
        var events = 0
        for (wearer, path) in paths.enumerated() {
            let trial = Self.cohort.trial(wearer: wearer, kind: kind)
            let result = try fromFiles.evaluate(tracePath: path)
            #expect(result.mountUsed == trial.mount, "the mount line names the board's mount")
            #expect(result.activity == GestureCohortExport.slug(kind))
            let expected = inMemory.detections(in: trial).filter { $0.event == .nod || $0.event == .shake }
            let replayed = result.detections.filter { $0.event == .nod || $0.event == .shake }
            #expect(replayed.map(\.event) == expected.map(\.event), "wearer \(wearer)")
            for (a, b) in zip(replayed, expected) { #expect(abs(a.t - b.t) < 1e-5) }
            events += expected.count
            let bouts = try GestureTruth.read(path: GestureTruth.path(forTrace: path)).bouts
            if let g = trial.gesture {
                #expect(bouts.count == 1)
                #expect(bouts.first?.label == g.label)
                #expect(abs((bouts.first?.start ?? -1) - g.start) < 1e-3 && abs((bouts.first?.end ?? -1) - g.end) < 1e-3)
            } else {
                #expect(bouts.isEmpty)
            }
        }
        if kind.isGesture { #expect(events >= Self.cohort.wearers, "every wearer's \(kind) answers (the comparison is not of nothing)") }
    }

    @Test func kindNamesBecomeFileNamesThatEvalReadsAsTheActivity() {
        #expect(GestureCohortExport.slug(.keyGlance) == "glancing_at_the_keys")
        #expect(GestureCohortExport.slug(.driftingGlance) == "glance_drifting_hold")
        #expect(GestureCohortExport.slug(.singleNod) == "single_nod")
        let name = GestureCohortExport(cohort: Self.cohort).fileName(wearer: 7, kind: .driftingGlance)
        #expect(name == "cohort_s5_w007_glance_drifting_hold.csv")
        #expect(Set(CohortKind.allCases.map(GestureCohortExport.slug)).count == CohortKind.allCases.count)
    }

    @Test func aDirectoryThatCannotBeWrittenIsAnError() {
        let export = GestureCohortExport(cohort: GestureCohort(wearers: 1, seed: 1))
        #expect(throws: FileError.self) { try export.write(kinds: [.glance], to: "/nonexistent-headtrack-dir") }
    }
}
