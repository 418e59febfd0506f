import Foundation
import Gestures
import Sensors
import Testing
@testable import Tracking
@testable import Formats
import Geometry

/// Real recording: ~50 s of continuous nodding, LSM6DSRX on a headphone at 26 Hz (STMicroelectronics,
/// BSD-3-Clause; see Fixtures/LICENSE-NOTE.md). Labelled truth: one nod bout over the whole file.
@Suite struct ReplayTests {
    func fixture(_ name: String) throws -> String {
        try #require(Bundle.module.path(forResource: name, ofType: nil, inDirectory: "Fixtures"))
    }

    @Test func nodRecordingYieldsNodsAndNoShakes() throws {
        let trace = try TraceFile.read(path: fixture("st26_nod.csv"))
        #expect(trace.rateHz == 26)
        var settings = Pipeline.Settings()
        settings.mount = try Mount(parsing: "-x,z,y")
        var nods = 0, shakes = 0
        Replay.run(trace, settings: settings) { e, _ in
            if case let .gesture(g) = e {
                if g.event == .nod { nods += 1 }
                if g.event == .shake { shakes += 1 }
            }
        }
        #expect(nods >= 1)
        #expect(shakes == 0)
    }

    // A gap of 1e7 s (valid times) must be skipped, not ticked through at 60 Hz.
    @Test func replaySkipsAHugeGapInsteadOfTickingThroughIt() throws {
        var text = "# format: imu-trace v1\nt,ax,ay,az,gx,gy,gz\n"
        for k in 0..<100 { text += "\(Double(k) / 100),0,0,9.81,0,0,0\n" }
        for k in 0..<100 { text += "\(1e7 + Double(k) / 100),0,0,9.81,0,0,0\n" }
        let trace = try TraceFile.parse(text, name: "gap.csv")
        var displays: [Double] = []
        Replay.run(trace, settings: Pipeline.Settings()) { event, _ in
            guard case let .display(t, _) = event else { return }
            displays.append(t)
            // 6e8 ticks on the old code: stop the test process rather than eat the machine's memory.
            if displays.count > 1_000_000 { fatalError("replay ticks through the 1e7 s gap") }
        }
        // Two seconds of samples at 60 Hz: about 120 ticks, each inside one of the two recorded stretches.
        #expect(displays.count >= 110 && displays.count <= 125, "\(displays.count) display ticks")
        #expect(displays.allSatisfy { $0 <= 1.0 || ($0 >= 1e7 && $0 <= 1e7 + 1.0) })
        // Ticks stay 1/60 s apart within each stretch.
        let late = displays.filter { $0 >= 1e7 }
        #expect(zip(late, late.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 60) < 1e-6 })
    }
}
