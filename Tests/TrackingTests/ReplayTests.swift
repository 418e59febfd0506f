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
            if case let .gesture(_, g) = e {
                if g == .nod { nods += 1 }
                if g == .shake { shakes += 1 }
            }
        }
        #expect(nods >= 1)
        #expect(shakes == 0)
    }
}
