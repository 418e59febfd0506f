import Foundation
import Formats
import Testing
@testable import Evaluation

/// A real recording with optical ground truth: 22 s of BROAD trial 01 (slow rotation), see
/// Fixtures/LICENSE-NOTE.md. The bound is the accuracy a good real-time filter reaches on this kind of motion
/// (the published reference filters score 2–3° total on the full trial).
@Suite struct BroadExcerptTests {
    func fixture(_ name: String) throws -> String {
        try #require(Bundle.module.path(forResource: name, ofType: nil, inDirectory: "Fixtures"))
    }

    @Test func slowRotationExcerptIsTrackedAccurately() throws {
        let trace = try TraceFile.read(path: fixture("broad_01_slow_rotation_excerpt.csv"))
        #expect(trace.records.count > 2000)
        let nineD = AttitudeEvaluation.evaluate(trace: trace, name: "01_undisturbed_excerpt", mode: .nineD)
        #expect(nineD.rmse.samples > 1500)
        #expect(nineD.rmse.totalDegrees < 3.0, "9D total \(nineD.rmse.totalDegrees)°")
        #expect(nineD.rmse.inclinationDegrees < 1.0, "9D inclination \(nineD.rmse.inclinationDegrees)°")
        let sixD = AttitudeEvaluation.evaluate(trace: trace, name: "01_undisturbed_excerpt", mode: .sixD)
        #expect(sixD.rmse.inclinationDegrees < 1.0, "6D inclination \(sixD.rmse.inclinationDegrees)°")
    }
}
