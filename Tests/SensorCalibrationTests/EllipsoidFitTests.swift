#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import SensorCalibration
import Geometry

@Suite struct EllipsoidFitTests {
    /// Directions spread over the whole sphere (a spiral), or over the cap z > zMin.
    func directions(_ n: Int, zMin: Double = -1) -> [Vector3] {
        (0..<n).map { i in
            let z = zMin + (1 - zMin) * (Double(i) + 0.5) / Double(n)
            let r = (1 - z * z).squareRoot()
            let phi = Double(i) * 2.399963229728653   // golden angle
            return Vector3(r * cos(phi), r * sin(phi), z)
        }
    }

    // Known distortion: symmetric soft iron (axis gains 1.15 / 0.9 / 1.0 with cross terms) and hard iron.
    let trueSoft = Matrix3(rows: Vector3(1.15, 0.06, -0.03), Vector3(0.06, 0.90, 0.04), Vector3(-0.03, 0.04, 1.0))
    let trueHard = Vector3(23.5, -41.0, 12.25)
    let strength = 48.0

    func measured(_ dirs: [Vector3], noise: Double = 0) -> [Vector3] {
        var seed: UInt64 = 7
        func uniform() -> Double { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Double(seed >> 11) / 9007199254740992 - 0.5 }
        return dirs.map { d in trueSoft * (d * strength) + trueHard + Vector3(uniform(), uniform(), uniform()) * (noise * 3.46) }
    }

    @Test func recoversKnownHardAndSoftIronWithinOnePercent() throws {
        let fit = try EllipsoidFit.fit(measured(directions(600), noise: 0.3))
        let hardError = (fit.correction.hardIron - trueHard).length / trueHard.length
        #expect(hardError < 0.01, "hard iron \(fit.correction.hardIron)")
        // The correction undoes the distortion up to one scale: softIron · trueSoft ∝ identity.
        let product = fit.correction.softIron * trueSoft
        let scale = cbrt(product.determinant)
        let deviation = (product * (1 / scale) - .identity).maxAbs
        #expect(deviation < 0.01, "softIron · trueSoft / scale = \(product * (1 / scale))")
        // And every corrected sample has the same strength.
        #expect(fit.relativeResidual < 0.01)
        #expect(fit.coverage > 0.95)
    }

    @Test func narrowCapOfDirectionsIsRefused() {
        // Only directions within about 50° of up: a third of the sphere.
        #expect(throws: EllipsoidFit.Failure.self) { try EllipsoidFit.fit(measured(directions(400, zMin: 0.35))) }
        do {
            _ = try EllipsoidFit.fit(measured(directions(400, zMin: 0.35)))
        } catch {
            if case let .tooLittleRotation(_, c, _, _) = error { #expect((c ?? 0) < 0.4) } else { Issue.record("expected tooLittleRotation, got \(error)") }
        }
    }

    @Test func fieldThatChangesDuringTheTurnIsRefused() {
        // A magnet (15 µT at the sensor) comes and goes while the headset is turned: no single ellipsoid fits.
        var samples = measured(directions(600))
        for i in 0..<600 where (i / 50) % 2 == 1 { samples[i] += Vector3(15, 0, 0) }
        do {
            _ = try EllipsoidFit.fit(samples)
            Issue.record("a changing field was accepted")
        } catch {
            switch error {
            case .fieldChanged: break
            default: Issue.record("expected fieldChanged, got \(error)")
            }
        }
    }

    @Test func tooFewOrFlatSamplesAreRefused() {
        #expect(throws: EllipsoidFit.Failure.tooFewSamples(10, needed: EllipsoidFit.minimumSamples)) {
            try EllipsoidFit.fit(Array(measured(directions(10))))
        }
        // Turning about one axis only: samples on a circle.
        let circle = (0..<200).map { i in Vector3(cos(Double(i) * 0.05), sin(Double(i) * 0.05), 0) * 40 }
        #expect(throws: EllipsoidFit.Failure.self) { try EllipsoidFit.fit(circle) }
    }

    @Test func coverageOfHalfTheSphereIsAboutHalf() {
        var half = SphereCoverage()
        for d in directions(2000, zMin: 0) { half.add(direction: d) }
        #expect(abs(half.fraction - 0.5) < 0.01)
        var all = SphereCoverage()
        for d in directions(2000) { all.add(direction: d) }
        #expect(all.fraction == 1)
    }

    @Test func symmetricEigenDecompositionReconstructsTheMatrix() {
        let (values, vectors) = trueSoft.symmetricEigen()
        let rebuilt = vectors * Matrix3.diagonal(values) * vectors.transposed
        #expect((rebuilt - trueSoft).maxAbs < 1e-12)
        #expect(values.x <= values.y && values.y <= values.z)
    }

    @Test func scatteredGrossOutliersAreWeighedOut() throws {
        // 3 % of samples hit by single-sample glitches (bus errors, a spike) of 30–60 µT, never two in a row.
        var samples = measured(directions(800), noise: 0.3)
        for i in stride(from: 5, to: 800, by: 33) { samples[i] += Vector3(30 + Double(i % 30), -20, 15) }
        let fit = try EllipsoidFit.fit(samples)
        #expect(fit.inlierFraction < 0.98 && fit.inlierFraction > 0.95)
        #expect((fit.correction.hardIron - trueHard).length < 0.5, "hard iron \(fit.correction.hardIron)")
        let product = fit.correction.softIron * trueSoft
        #expect((product * (1 / cbrt(product.determinant)) - .identity).maxAbs < 0.01)
    }

    @Test func rawCountsWithAHugeOffsetFitAsWellAsMicrotesla() throws {
        // The normalisation (mean, RMS distance) makes the solve independent of unit and offset: the same
        // turn in LSB (×6.67, AK8963 0.15 µT/LSB) around a 4000-count offset gives the same correction.
        let micro = measured(directions(600), noise: 0.3)
        let counts = micro.map { $0 * (1 / 0.15) + Vector3(4000, -3000, 2500) }
        let a = try EllipsoidFit.fitUnchecked(micro)
        let b = try EllipsoidFit.fitUnchecked(counts)
        #expect((b.correction.softIron - a.correction.softIron).maxAbs < 1e-6)
        #expect(((b.correction.hardIron - Vector3(4000, -3000, 2500)) * 0.15 - a.correction.hardIron).length < 1e-6)
    }

    @Test func aNoiseBlobIsTooLittleRotationNotAFit() {
        // A still sensor: 0.6 µT noise around one field vector. Around *its own* centre a noise blob covers
        // every direction, which is why the spread is checked on the raw samples first.
        var seed: UInt64 = 3
        func g() -> Double { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Double(seed >> 11) / 9007199254740992 - 0.5 }
        let blob = (0..<500).map { _ in Vector3(12, 25, -40) + Vector3(g(), g(), g()) * (0.6 * 3.46) }
        #expect(throws: EllipsoidFit.Failure.self) { try EllipsoidFit.fit(blob) }
        do { _ = try EllipsoidFit.fit(blob) } catch {
            guard case .tooLittleRotation = error else { Issue.record("expected tooLittleRotation, got \(error)"); return }
        }
    }
}
