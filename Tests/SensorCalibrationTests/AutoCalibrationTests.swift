#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import SensorCalibration
import Geometry

/// The background calibration against irons applied here (the truth), fed as the pipeline feeds it: a raw
/// magnetometer sample at 100 Hz with the sensor's attitude in a gyro-and-gravity frame whose heading is
/// arbitrary (40° off north: the learner must not need north), and a slice of work per 200 Hz IMU sample.
@Suite struct AutoCalibrationTests {
    let earthField = Vector3(0, 20, -45)
    let hardIron = Vector3(26, -12, 8)
    // Symmetric soft iron: axis gains +20 % / −15 % and cross terms, the size of a headset's speakers.
    let softIron = Matrix3(rows: Vector3(1.20, 0.10, 0.05), Vector3(0.10, 0.85, -0.08), Vector3(0.05, -0.08, 1.00))
    let levelOffset = Quaternion(axis: Vector3(0, 0, 1), angle: 40 * .pi / 180)

    /// A tumble through every direction: roll at 0.9 rad/s, pitch swinging ±1.3 rad, yaw at 0.23 rad/s.
    func tumble(_ t: Double) -> Quaternion {
        EulerAngles(roll: 0.9 * t, pitch: 1.3 * sin(0.31 * t), yaw: 0.23 * t).quaternion
    }

    struct Noise {
        var state: UInt64 = 12345
        mutating func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / 9007199254740992 - 0.5
        }
        mutating func vector(_ sigma: Double) -> Vector3 { Vector3(next(), next(), next()) * (sigma * 3.46) }
    }

    /// Runs `learner` over `seconds` of motion; `field(t)` is the world's field, `attitude(t)` the sensor's.
    func run(_ learner: inout MagnetometerAutoCalibration, from start: Double = 0, seconds: Double,
             attitude: (Double) -> Quaternion, field: (Double) -> Vector3 = { _ in Vector3(0, 20, -45) },
             iron: Bool = true) {
        var noise = Noise()
        let steps = Int(seconds * 200)
        for k in 0..<steps {
            let t = start + Double(k) / 200
            let q = attitude(t)
            if k % 2 == 0 {
                let ideal = q.inverseRotate(field(t))
                let raw = (iron ? softIron * ideal + hardIron : ideal) + noise.vector(0.3)
                learner.observe(raw, level: levelOffset * q)
            }
            _ = learner.work()
        }
    }

    @Test func tumbleWithAKnownIronConvergesToIt() {
        var learner = MagnetometerAutoCalibration()
        run(&learner, seconds: 90, attitude: tumble)
        #expect(learner.state == .calibrated)
        #expect(learner.source == .learned)
        let c = learner.correction
        #expect((c.hardIron - hardIron).length < 0.5, "hard iron \(c.hardIron), applied \(hardIron)")
        // The correction undoes the applied soft iron up to one scale: softIron(learned) · softIron ∝ identity.
        let product = c.softIron * softIron
        let deviation = (product * (1 / cbrt(product.determinant)) - .identity).maxAbs
        #expect(deviation < 0.01, "learned soft iron · applied = \(product)")
        // So the corrected field has one strength in every direction.
        let strengths = (0..<50).map { i in c.apply(softIron * tumble(Double(i) * 1.7).inverseRotate(earthField) + hardIron).length }
        #expect((strengths.max()! - strengths.min()!) / strengths.min()! < 0.01)
        #expect(learner.acceptedFits >= 1)
    }

    @Test func noIronIsNotReplacedByALearnedOne() {
        // A sensor without iron: the raw field explains itself, and a fit of the same field is no better.
        var learner = MagnetometerAutoCalibration()
        run(&learner, seconds: 90, attitude: tumble, iron: false)
        #expect(learner.correction == .identity, "\(learner.correction)")
        #expect(learner.revision == 0)
        #expect(learner.isEstablished)
    }

    @Test func magnetPassingAStillHeadIsNotLearned() {
        // Head still for 60 s; a magnet brought to it (60 µT in the room's frame) and taken away between 10 s
        // and 40 s. The field moves by tens of µT while the gyro says the head did not turn.
        let still = EulerAngles(roll: 0.1, pitch: -0.2, yaw: 1.0).quaternion
        let magnet = { (t: Double) -> Vector3 in
            let ramp = Swift.max(0, Swift.min(1, (t - 10) / 5)) * Swift.max(0, Swift.min(1, (40 - t) / 5))
            return Vector3(0, 20, -45) + Vector3(45, -20, 25) * ramp
        }
        var learner = MagnetometerAutoCalibration()
        run(&learner, seconds: 60, attitude: { _ in still }, field: magnet)
        #expect(learner.revision == 0)
        #expect(learner.refusedSamples > 10, "refused \(learner.refusedSamples)")
        #expect(learner.storedSamples <= 1, "stored \(learner.storedSamples)")
        #expect(learner.correction == .identity)
    }

    @Test func magnetPassingAStillHeadLeavesALearnedCalibrationAlone() {
        var learner = MagnetometerAutoCalibration()
        run(&learner, seconds: 90, attitude: tumble)
        let still = tumble(90)
        run(&learner, from: 90, seconds: 5, attitude: { _ in still })
        let learned = learner.correction
        let revision = learner.revision
        let stored = learner.storedSamples
        let magnet = { (t: Double) -> Vector3 in
            let ramp = Swift.max(0, Swift.min(1, (t - 95) / 5)) * Swift.max(0, Swift.min(1, (125 - t) / 5))
            return Vector3(0, 20, -45) + Vector3(45, -20, 25) * ramp
        }
        run(&learner, from: 95, seconds: 40, attitude: { _ in still }, field: magnet)
        #expect(learner.storedSamples <= stored + 1)
        #expect(learner.refusedSamples > 10)
        #expect(learner.revision == revision)
        #expect(learner.correction == learned)
        #expect(learner.state == .calibrated)
    }

    @Test func anIronThatChangesIsLearnedAgain() {
        // A calibrated headset gets a new iron (a battery swap): the old samples are forgotten and the new
        // iron is learned from the samples after the change.
        var learner = MagnetometerAutoCalibration()
        run(&learner, seconds: 90, attitude: tumble)
        #expect(learner.state == .calibrated)
        let newHard = Vector3(-18, 21, -11)
        var noise = Noise()
        for k in 0..<(120 * 200) {
            let t = 90 + Double(k) / 200
            let q = tumble(t)
            if k % 2 == 0 {
                learner.observe(softIron * q.inverseRotate(earthField) + newHard + noise.vector(0.3), level: levelOffset * q)
            }
            _ = learner.work()
        }
        #expect(learner.forgettings >= 1)
        #expect(learner.state == .calibrated)
        #expect((learner.correction.hardIron - newHard).length < 0.5, "hard iron \(learner.correction.hardIron)")
    }

    @Test func slicedFitIsEllipsoidFitsFit() {
        // The same samples through the batch fit and the background's sliced one: the same estimator, the
        // scale of the Tukey weights from a histogram instead of a sort.
        var samples = CalibrationSamples(slotsPerCell: 8)
        var noise = Noise()
        for i in 0..<400 {
            let m = softIron * tumble(Double(i) * 0.37).inverseRotate(earthField) + hardIron + noise.vector(0.3)
            let cell = SphereCoverage.cell(of: m - hardIron) ?? 0
            samples.add(field: m, level: .identity, cell: cell)
        }
        var fit = SlicedEllipsoidFit(capacity: samples.capacity, samplesPerCell: 3)
        fit.start(limit: samples.nextSequence)
        var calls = 0
        while fit.isRunning { fit.advance(samples, budget: 16); calls += 1 }
        let sliced = try! #require(fit.result)
        let batch = try! EllipsoidFit.fitUnchecked(samples.slots.filter { $0.sequence >= 0 }.map(\.field))
        #expect((sliced.correction.hardIron - batch.correction.hardIron).length < 0.05)
        #expect((sliced.correction.softIron - batch.correction.softIron).maxAbs < 0.002)
        #expect(abs(sliced.fieldStrength - batch.fieldStrength) < 0.05)
        #expect(abs(sliced.coverage - batch.coverage) < 0.02)
        #expect(sliced.samples == batch.samples)
        // Bounded work per call: the whole fit is spread over many loop iterations.
        #expect(calls > 100)
    }
}
