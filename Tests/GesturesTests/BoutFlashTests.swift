import Foundation
import Formats
import Geometry
import Testing
import Tracking
@testable import Gestures

/// The README's promise: one flash however long the nodding goes on. On a recording of many long bouts of
/// nodding (../shared st30_nod1: 23 labelled bouts, which the detector reports 73 times), the nod LED must
/// light once a bout, not once a report. The truth is the recording's labelled bouts.
@Suite struct BoutFlashTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let recording = repository + "/../shared/data/gestures/st30_nod1"

    @Test(.enabled(if: FileManager.default.fileExists(atPath: recording + ".csv"), "needs ../shared (README: Shared recordings)"))
    func theNodLedFlashesOnceABout() throws {
        let trace = try TraceFile.read(path: Self.recording + ".csv")
        let truth = try GestureTruth.read(path: Self.recording + ".truth.json").bouts.count
        var settings = Pipeline.Settings()
        settings.mount = try Mount(parsing: "-x,z,y")
        var reports = 0, flashes = 0, lit = false, bouts = 0
        let nodBit: UInt64 = 1  // bit 0: the nod LED (EventStream.ledNames, the mask's order)
        Replay.run(trace, settings: settings, questionPending: { false }) { event, pipeline in
            switch event {
            case let .gesture(_, e): if e == .nod { reports += 1 }
            case let .display(_, leds):
                if leds & nodBit != 0 && !lit { flashes += 1 }
                lit = leds & nodBit != 0
                bouts = pipeline.bouts.id
            case .sample: break
            }
        }
        #expect(reports >= 2 * truth, "the detector's repeats this is about: \(reports) reports on \(truth) bouts")
        #expect(flashes == bouts, "\(flashes) flashes, \(bouts) bouts")
        #expect(abs(flashes - truth) <= truth / 4, "\(flashes) flashes on \(truth) labelled bouts (\(reports) reports)")
    }
}
