import GestureMetrics
import Foundation
import Geometry
import Formats
import Sensors
import Testing
@testable import Gestures

/// The 26 Hz headphone recordings (LSM6DSRX, STMicroelectronics, BSD-3-Clause; Fixtures/LICENSE-NOTE.md), scored
/// against their labelled bouts by the shared scoring rule. Targets: every nod and shake bout found, no
/// confusion, no nod or shake at all on the still, swinging and walking recordings — with the wearing mount
/// (-x,z,y) and with none.
@Suite struct RecordedGestureTests {
    static let files = ["st26_nod", "st26_shake", "st26_stationary", "st26_swing", "st26_walk"]
    static let mounts: [String?] = ["-x,z,y", nil]

    func fixture(_ name: String) throws -> String {
        try #require(Bundle.module.path(forResource: name, ofType: nil, inDirectory: "Fixtures"))
    }

    func score(_ name: String, mount: String?, evaluation: GestureEvaluation = GestureEvaluation()) throws
        -> GestureEvaluation.FileResult {
        var e = evaluation
        e.mount = try mount.map { try Mount(parsing: $0) }
        return try e.evaluate(tracePath: try fixture(name + ".csv"))
    }

    @Test(arguments: files, mounts)
    func everyBoutFoundAndNothingElse(name: String, mount: String?) throws {
        let r = try score(name, mount: mount)
        let truth = try GestureTruth.read(path: try fixture(name + ".truth.json"))
        #expect(r.score.bouts == truth.bouts.count)
        #expect(r.score.hits == truth.bouts.count, "\(name) mount \(mount ?? "none"): \(r.detections)")
        #expect(r.score.falseDetections == 0, "\(name) mount \(mount ?? "none"): \(r.detections)")
        #expect(r.score.confusions == 0)
        if truth.bouts.isEmpty {
            #expect(r.detections.isEmpty, "no nod or shake at all on \(name): \(r.detections)")
        }
    }

    /// The two 3-minute 30 Hz headphone recordings with 78 labelled bouts (nodding and shaking bursts with
    /// turns and other movement between them). They live in ../shared/data only (800 KB), so this test is
    /// skipped, visibly, where that folder is missing.
    static let sharedGestures = String(#filePath).split(separator: "/").dropLast(3).map(String.init)
        .reduce("") { $0 + "/" + $1 } + "/../shared/data/gestures"

    @Test(.enabled(if: FileIO.exists(sharedGestures + "/st30_nod1.csv"), "needs ../shared (README: Shared recordings)"),
          arguments: ["st30_nod1", "st30_shake1"])
    func everyBoutOfTheLongRecordingsFound(name: String) throws {
        // st30_nod1: every bout in both modes. st30_shake1 has a bout (10.97 s, a 7 Hz shake whose later swings
        // fall to 1–3°) in which the detector keeps only three swings in a row, begun 0.11 s after a swing of
        // the head (docs/gestures.md): always-on needs four, and a single shake needs the head at rest before
        // it, so the floor there is 1 below the truth in both modes; no false gesture and no confusion.
        for listening in [true, false] {
            var e = GestureEvaluation(recognizer: RecognizerUnderTest(listening: listening))
            e.mount = try Mount(parsing: "-x,z,y")
            let r = try e.evaluate(tracePath: Self.sharedGestures + "/" + name + ".csv")
            let truth = try GestureTruth.read(path: Self.sharedGestures + "/" + name + ".truth.json")
            let floor = name == "st30_shake1" ? truth.bouts.count - 1 : truth.bouts.count
            #expect(r.score.hits >= floor, "\(name), listening \(listening): \(r.score.hits) of \(truth.bouts.count) bouts")
            #expect(r.score.falseDetections == 0 && r.score.confusions == 0, "\(name): \(r.detections)")
        }
    }

    @Test func theLabelsOfTheRecordingsAreWhatTheirNamesSay() throws {
        // Guards the fixtures: one long nod bout, one long shake bout, and three recordings without gestures.
        #expect(try GestureTruth.read(path: fixture("st26_nod.truth.json")).bouts.map(\.label) == ["nod"])
        #expect(try GestureTruth.read(path: fixture("st26_shake.truth.json")).bouts.map(\.label) == ["shake"])
        for quiet in ["st26_stationary", "st26_swing", "st26_walk"] {
            #expect(try GestureTruth.read(path: fixture(quiet + ".truth.json")).bouts.isEmpty)
        }
    }

    @Test(arguments: FlickPreset.allCases)
    func noFlickWhileStandingStill(preset: FlickPreset) throws {
        let r = try score("st26_stationary", mount: "-x,z,y",
                          evaluation: GestureEvaluation(recognizer: RecognizerUnderTest(settings: .init(flicks: true, preset: preset))))
        #expect(r.detections.isEmpty)
    }

    @Test func theClassicRecipeFiresOnSwaying() throws {
        // The baseline's known weakness, measured: it finds the gestures but also "shakes" while swaying.
        let classic = GestureEvaluation(recognizer: RecognizerUnderTest(detector: .classic))
        #expect(try score("st26_nod", mount: "-x,z,y", evaluation: classic).score.hits == 1)
        #expect(try score("st26_shake", mount: "-x,z,y", evaluation: classic).score.hits == 1)
        #expect(try score("st26_swing", mount: "-x,z,y", evaluation: classic).score.falseDetections > 10)
    }
}
