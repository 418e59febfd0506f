import Testing
@testable import Fusion
import Geometry

/// `GyroBiasEstimator.clamp` skips its min/max when the bias is inside the limit: inside it must leave the
/// bias bit for bit, outside it must cut exactly the components beyond ±limit to ±limit.
@Suite struct GyroBiasClampTests {
    /// An estimator whose bias has been measured (tight variance) to about `target`.
    static func estimator(biasNear target: Vector3) -> GyroBiasEstimator {
        var e = GyroBiasEstimator(initialSigma: 10)
        for _ in 0..<3 {
            e.measure(along: Vector3(1, 0, 0), value: target.x, variance: 1e-12)
            e.measure(along: Vector3(0, 1, 0), value: target.y, variance: 1e-12)
            e.measure(along: Vector3(0, 0, 1), value: target.z, variance: 1e-12)
        }
        return e
    }

    @Test func insideTheLimitNothingChanges() {
        var e = GyroBiasClampTests.estimator(biasNear: Vector3(0.01, -0.02, 0.005))
        let before = e.bias
        e.clamp(0.05)
        #expect(e.bias == before)
        // On the limit is inside too.
        var f = GyroBiasClampTests.estimator(biasNear: Vector3(0.01, -0.02, 0.005))
        let limit = abs(f.bias.y)
        f.clamp(limit)
        #expect(f.bias == before)
    }

    @Test(arguments: [Vector3(0.2, 0, 0), Vector3(0, -0.3, 0), Vector3(0.01, 0.02, 0.9), Vector3(-1, 1, -1)])
    func beyondTheLimitEachComponentIsCutToIt(target: Vector3) {
        var e = GyroBiasClampTests.estimator(biasNear: target)
        let before = e.bias
        let limit = 0.05
        e.clamp(limit)
        for i in 0..<3 {
            let expected = Swift.min(Swift.max(before[i], -limit), limit)
            #expect(e.bias[i] == expected, "component \(i): \(before[i]) → \(e.bias[i])")
        }
    }
}
