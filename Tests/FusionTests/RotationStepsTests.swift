#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Fusion
import Geometry

/// The filter's fast rotation helpers against the general formulas they replace (libm, the textbook Kalman
/// update): each must agree to rounding wherever the filter uses it, and fall back correctly outside.
@Suite struct RotationStepsTests {
    /// Angles from tiny to beyond the series' range, both signs.
    let angles: [Double] = [0, 1e-9, 3e-5, 1e-3, 0.01, 0.05, 1.0 / 16, 0.07, 0.5, 2, 3.1].flatMap { [$0, -$0] }

    @Test func sinCosMatchesLibm() {
        for x in angles {
            let (s, c) = sinCosOfSmallAngle(x)
            #expect(abs(s - sin(x)) <= 2e-16 * max(1, abs(sin(x))), "sin \(x)")
            #expect(abs(c - cos(x)) <= 2e-16, "cos \(x)")
        }
    }

    @Test func atan2NearXAxisMatchesLibm() {
        for a in angles {
            for r in [1e-3, 1.0, 40.0] {
                let y = r * sin(a), x = r * cos(a)
                #expect(abs(atan2NearXAxis(y, x) - atan2(y, x)) <= 4e-16 * max(1, abs(a)), "angle \(a), radius \(r)")
            }
        }
    }

    @Test func gyroStepMatchesTheExactRotation() {
        for a in angles {
            let r = Vector3(0.3, -0.8, 0.52).normalized * a
            let fast = Quaternion.gyroStep(r), exact = Quaternion(rotationVector: r)
            for (p, q) in [(fast.w, exact.w), (fast.x, exact.x), (fast.y, exact.y), (fast.z, exact.z)] {
                #expect(abs(p - q) <= 3e-16, "angle \(a)")
            }
        }
    }

    @Test func renormalizationRestoresUnitLength() {
        let q = Quaternion(axis: Vector3(1, 2, 3), angle: 0.7)
        let off = Quaternion(w: q.w * (1 + 1e-9), x: q.x * (1 + 1e-9), y: q.y * (1 + 1e-9), z: q.z * (1 + 1e-9))
        #expect(abs(off.renormalized.norm - 1) < 1e-16)
        // A product with a unit quaternion keeps the norm, so the factor before the product fixes it after.
        let p = (off * Quaternion(axis: Vector3(0, 1, 0), angle: 0.3)).scaled(by: off.renormalizingFactor)
        #expect(abs(p.norm - 1) < 1e-15)
    }

    @Test func turnToVerticalIsTheSmallestRotationOntoUp() {
        // Directions from nearly vertical (the series) to far off it (the square root), and straight down.
        for (tilt, azimuth) in [(1e-6, 0.3), (0.01, 2.0), (0.02, -1.0), (0.5, 1.0), (2.5, -2.0)] {
            let v = Vector3(sin(tilt) * cos(azimuth), sin(tilt) * sin(azimuth), cos(tilt)) * 9.81
            let q = try! #require(AttitudeFilter.turnToVertical(v, length: v.length))
            let turned = q.rotate(v)
            #expect(abs(turned.x) < 1e-14 && abs(turned.y) < 1e-14, "tilt \(tilt)")
            #expect(abs(q.norm - 1) < 1e-15)
            // Smallest: the rotation angle is the tilt, and its axis is horizontal.
            // (the angle from atan2, which keeps its precision for tiny angles where acos would not)
            #expect(abs(2 * atan2(q.vector.length, q.w) - tilt) < 1e-12, "tilt \(tilt)")
            #expect(q.z == 0)
        }
        let down = try! #require(AttitudeFilter.turnToVertical(Vector3(0, 0, -9.81), length: 9.81))
        #expect(abs(down.rotate(Vector3(0, 0, -1)).z - 1) < 1e-15)
        #expect(AttitudeFilter.turnToVertical(Vector3(0, 0, 1e-4), length: 1e-4) == nil)
    }

    @Test func headingRotationFollowsItsAngle() {
        // Turn by many small and a few large steps across ±π: the pair must stay the half-angle rotation of
        // the wrapped angle, with cos ½a ≥ 0.
        var rotation = HeadingRotation(angle: 3.0)
        var angle = 3.0
        for k in 0..<20_000 {
            let step = k % 1000 == 0 ? 0.4 : 1e-3
            rotation.turn(by: step)
            angle += step
            if angle > .pi { angle -= 2 * .pi }
            let expected = Quaternion(axis: Vector3(0, 0, 1), angle: angle)
            let got = rotation.applied(to: .identity)
            #expect(abs(got.w - expected.w) < 1e-12 && abs(got.z - expected.z) < 1e-12, "step \(k)")
            if abs(got.w - expected.w) >= 1e-12 { break }
        }
    }

    @Test func unitAngleMeasuresTheAngleToADirection() {
        var reference = UnitAngle(1.1)
        reference.turn(by: 0.002)
        for target in [1.102, 1.2, 0.9, -1.0, 2.9] {
            let measured = reference.angle(to: 5 * cos(target), 5 * sin(target))
            var expected = target - 1.102
            if expected > .pi { expected -= 2 * .pi }
            if expected <= -.pi { expected += 2 * .pi }
            #expect(abs(measured - expected) < 1e-14, "target \(target)")
        }
    }

    /// The textbook Kalman update of a 3-state estimate with a 2-row measurement, written with full
    /// matrices: K = P Hᵀ (H P Hᵀ + R)⁻¹, x += K (z − H x), P −= K H P.
    func textbookUpdate(bias: [Double], covariance P: [[Double]], rows H: [[Double]], measured z: [Double],
                        variance v: Double) -> (bias: [Double], covariance: [[Double]]) {
        var PHt = [[Double]](repeating: [0, 0], count: 3)
        for i in 0..<3 { for j in 0..<2 { for k in 0..<3 { PHt[i][j] += P[i][k] * H[j][k] } } }
        var S: [[Double]] = [[v, 0], [0, v]]
        for i in 0..<2 { for j in 0..<2 { for k in 0..<3 { S[i][j] += H[i][k] * PHt[k][j] } } }
        let det = S[0][0] * S[1][1] - S[0][1] * S[1][0]
        let inverse: [[Double]] = [[S[1][1] / det, -S[0][1] / det], [-S[1][0] / det, S[0][0] / det]]
        var K = [[Double]](repeating: [0, 0], count: 3)
        for i in 0..<3 { for j in 0..<2 { for k in 0..<2 { K[i][j] += PHt[i][k] * inverse[k][j] } } }
        var residual: [Double] = z
        for j in 0..<2 { for k in 0..<3 { residual[j] -= H[j][k] * bias[k] } }
        var x = bias
        for i in 0..<3 { for j in 0..<2 { x[i] += K[i][j] * residual[j] } }
        var newP = P
        for i in 0..<3 { for k in 0..<3 { for j in 0..<2 { newP[i][k] -= K[i][j] * PHt[k][j] } } }
        return (x, newP)
    }

    @Test func jointBiasUpdateIsTheTextbookKalmanUpdate() {
        var estimator = GyroBiasEstimator(initialSigma: 0.02)
        // Some history first, so the covariance has off-diagonal terms.
        estimator.measure(along: Vector3(0.6, 0.8, 0), value: 0.01, variance: 1e-4)
        estimator.measure(along: Vector3(0, 0.6, 0.8), value: -0.004, variance: 2e-4)
        let e1 = Vector3(0.36, 0.48, 0.8), e2 = Vector3(0.8, -0.6, 0)
        let b = estimator.bias
        let m = estimator.covariance
        let P = [0, 1, 2].map { i in [0, 1, 2].map { j in m[i, j] } }
        let z = [e1.dot(b) + 0.003, e2.dot(b) - 0.002]
        let expected = textbookUpdate(bias: [b.x, b.y, b.z], covariance: P, rows: [[e1.x, e1.y, e1.z], [e2.x, e2.y, e2.z]],
                                      measured: z, variance: 3e-4)
        estimator.correct(along: e1, e2, residuals: 0.003, -0.002, variance: 3e-4)
        #expect(abs(estimator.bias.x - expected.bias[0]) < 1e-15)
        #expect(abs(estimator.bias.y - expected.bias[1]) < 1e-15)
        #expect(abs(estimator.bias.z - expected.bias[2]) < 1e-15)
        let updated = estimator.covariance
        for i in 0..<3 {
            for j in 0..<3 { #expect(abs(updated[i, j] - expected.covariance[i][j]) < 1e-15, "P[\(i)][\(j)]") }
        }
    }

    /// The at-rest measurement written out per axis gives the bits of three general scalar updates along the
    /// unit axes (x, then y, then z), and agrees with the textbook update of each.
    @Test func restMeasurementIsThreeScalarUpdatesAlongTheAxes() {
        var general = GyroBiasEstimator(initialSigma: 0.02)
        // Some history first, so the covariance has off-diagonal terms of both signs and the bias is not zero.
        general.measure(along: Vector3(0.6, 0.8, 0), value: 0.01, variance: 1e-4)
        general.measure(along: Vector3(0, 0.6, -0.8), value: -0.004, variance: 2e-4)
        general.correct(along: Vector3(0.36, 0.48, 0.8), Vector3(0.8, -0.6, 0), residuals: 0.003, -0.002, variance: 3e-4)
        var perAxis = general
        let measured = Vector3(0.012, -0.007, 0.0031), v = 5e-5
        var expected = general
        general.measure(along: Vector3(1, 0, 0), value: measured.x, variance: v)
        general.measure(along: Vector3(0, 1, 0), value: measured.y, variance: v)
        general.measure(along: Vector3(0, 0, 1), value: measured.z, variance: v)
        perAxis.measureEachAxis(measured, variance: v)
        #expect(perAxis == general)
        // Against the textbook scalar update, one axis a at a time: K = P[:, a] / (P[a][a] + v),
        // bias += K (z − bias[a]), P −= K P[a, :].
        for a in 0..<3 {
            var b = [expected.bias.x, expected.bias.y, expected.bias.z]
            let m = expected.covariance
            var P = [0, 1, 2].map { i in [0, 1, 2].map { j in m[i, j] } }
            let k = P.map { $0[a] / (P[a][a] + v) }
            let residual = measured[a] - b[a]
            let row = P[a]
            for i in 0..<3 { b[i] += k[i] * residual; for j in 0..<3 { P[i][j] -= k[i] * row[j] } }
            expected.measure(along: Vector3(a == 0 ? 1 : 0, a == 1 ? 1 : 0, a == 2 ? 1 : 0), value: measured[a], variance: v)
            for i in 0..<3 {
                #expect(abs(expected.bias[i] - b[i]) < 1e-15, "axis \(a) bias \(i)")
                for j in 0..<3 { #expect(abs(expected.covariance[i, j] - P[i][j]) < 1e-18, "axis \(a) P[\(i)][\(j)]") }
            }
        }
        #expect(perAxis == expected)
    }

    /// The product with a horizontal-axis turn (z = 0) is the Hamilton product, bit for bit.
    @Test func horizontalTurnProductIsTheHamiltonProduct() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {  // xorshift, in [−1, 1)
            seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
            return Double(seed >> 11) / Double(1 << 52) - 1
        }
        for _ in 0..<10_000 {
            let t = Quaternion(w: next(), x: next(), y: next(), z: 0)
            let q = Quaternion(w: next(), x: next(), y: next(), z: next())
            #expect(Quaternion.product(ofHorizontalTurn: t, q) == t * q)
        }
        // The filter's turn by π about x, for gravity pointing straight down.
        let flip = Quaternion(w: 0, x: 1, y: 0, z: 0), q = Quaternion(w: 0.5, x: -0.5, y: 0.5, z: 0.5)
        #expect(Quaternion.product(ofHorizontalTurn: flip, q) == flip * q)
    }
}
