#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Fusion
import Geometry

/// The filter against analytic motions whose truth is known exactly. Readings are made from the truth here
/// (earth vectors rotated into the body), so every expectation compares with the truth, not with the filter.
@Suite struct AttitudeFilterTests {
    let field = Vector3(0, 19, -44)
    let gravity = Vector3(0, 0, Units.standardGravity)
    let dt = 0.005

    /// Angle (degrees) between two attitudes.
    func errorDegrees(_ a: Quaternion, _ b: Quaternion) -> Double { (a * b.conjugate).angle * Units.degreesPerRadian }

    /// Heading part (degrees) of the error a ⊗ b⁻¹.
    func headingErrorDegrees(_ a: Quaternion, _ b: Quaternion) -> Double {
        let e = a * b.conjugate
        return 2 * atan(abs(e.z / e.w)) * Units.degreesPerRadian
    }

    /// Tilt part (degrees) of the error a ⊗ b⁻¹.
    func inclinationErrorDegrees(_ a: Quaternion, _ b: Quaternion) -> Double {
        let e = a * b.conjugate
        return 2 * acos(min(1, (e.w * e.w + e.z * e.z).squareRoot())) * Units.degreesPerRadian
    }

    /// Runs `seconds` of a motion whose truth is `truth(t)`; the gyro reads the exact mean rate over each step
    /// plus `bias`; returns the final filter.
    func run(_ filter: inout AttitudeFilter, from t0: Double = 0, seconds: Double, bias: Vector3 = .zero,
             fieldAt: (Double) -> Vector3? = { _ in nil }, truth: (Double) -> Quaternion,
             check: (Double, AttitudeFilter) -> Void = { _, _ in }) {
        let steps = Int(seconds / dt)
        for k in 0..<steps {
            let t = t0 + Double(k) * dt
            let q = truth(t), next = truth(t + dt)
            var d = q.conjugate * next
            if d.w < 0 { d = Quaternion(w: -d.w, x: -d.x, y: -d.y, z: -d.z) }
            // Exact mean rate over the step: rotation vector of the step / dt.
            let s = Vector3(d.x, d.y, d.z).length
            let rate = s > 0 ? Vector3(d.x, d.y, d.z) / s * (2 * atan2(s, d.w) / dt) : .zero
            // Gyro: mean rate over (t, t+dt]; accelerometer and magnetometer: sampled at the end, t+dt.
            let f = fieldAt(t + dt) ?? field
            filter.update(gyro: rate + bias, accel: next.inverseRotate(gravity), mag: next.inverseRotate(f), dt: dt)
            check(t, filter)
        }
    }

    @Test func firstSampleGivesTheTrueAttitude() {
        let truth = EulerAngles(roll: 0.3, pitch: -0.5, yaw: 2.0).quaternion
        var filter = AttitudeFilter()
        filter.update(gyro: .zero, accel: truth.inverseRotate(gravity), mag: truth.inverseRotate(field), dt: dt)
        #expect(filter.isInitialized)
        #expect(filter.hasHeadingReference)
        #expect(errorDegrees(filter.attitude, truth) < 1e-6)
    }

    @Test func stillHeadKeepsAttitudeAndLearnsGyroBias() {
        let truth = EulerAngles(roll: 0.1, pitch: 0.2, yaw: -1).quaternion
        let bias = Vector3(0.8, -1.1, 0.6) * Units.radiansPerDegree
        var filter = AttitudeFilter()
        run(&filter, seconds: 20, bias: bias, truth: { _ in truth })
        #expect(filter.isAtRest)
        #expect((filter.gyroBias - bias).length * Units.degreesPerRadian < 0.02)
        #expect(errorDegrees(filter.attitude, truth) < 0.5)
    }

    @Test func slowAndFastTurnsAreTracked() {
        for (amplitude, frequency) in [(60.0, 0.1), (90.0, 0.8)] {
            let truth: (Double) -> Quaternion = { t in
                EulerAngles(roll: 0.1 * sin(t), pitch: 0.3 * sin(2 * .pi * frequency * 1.3 * t),
                            yaw: amplitude * Units.radiansPerDegree * sin(2 * .pi * frequency * t)).quaternion
            }
            var filter = AttitudeFilter()
            var worst = 0.0
            run(&filter, seconds: 60, truth: truth) { t, f in worst = max(worst, errorDegrees(f.attitude, truth(t + dt))) }
            // Perfect sensors: the only error is numerical, whatever the speed.
            #expect(worst < 0.5, "amplitude \(amplitude)°, \(frequency) Hz: worst error \(worst)°")
        }
    }

    @Test func uncorrectedGyroBiasIsLearnedInMotion() {
        // No rest at all: the bias must come from the tilt and heading corrections.
        let bias = Vector3(0.6, -0.9, 0.7) * Units.radiansPerDegree
        let truth: (Double) -> Quaternion = { t in
            EulerAngles(roll: 0.3 * sin(0.5 * t), pitch: 0.4 * sin(0.37 * t + 1), yaw: 1.5 * sin(0.2 * t)).quaternion
        }
        var filter = AttitudeFilter()
        run(&filter, seconds: 240, bias: bias, truth: truth)
        #expect(!filter.isAtRest)
        #expect((filter.gyroBias - bias).length * Units.degreesPerRadian < 0.15)
        #expect(errorDegrees(filter.attitude, truth(240)) < 1.5)
    }

    @Test func accelerationsDoNotTiltTheEstimate() {
        // Walking-like bounce and sway of 2–3 m/s² while the head is level: tilt must stay small.
        let truth = EulerAngles(roll: 0, pitch: 0, yaw: 0.7).quaternion
        var filter = AttitudeFilter()
        var worst = 0.0
        for k in 0..<Int(60 / dt) {
            let t = Double(k) * dt
            let a = Vector3(1.2 * sin(2 * .pi * 1 * t), 2 * sin(2 * .pi * 2 * t + 0.4), 3 * sin(2 * .pi * 2 * t))
            filter.update(gyro: .zero, accel: truth.inverseRotate(gravity + a), mag: truth.inverseRotate(field), dt: dt)
            if t > 5 { worst = max(worst, inclinationErrorDegrees(filter.attitude, truth)) }
        }
        #expect(worst < 1.0, "worst tilt \(worst)°")
    }

    @Test func magnetBroughtNearIsRejectedAndRecoveredFrom() {
        let truth: (Double) -> Quaternion = { t in EulerAngles(roll: 0, pitch: 0.2, yaw: 0.8 * sin(0.3 * t)).quaternion }
        // A magnet adds 40 µT sideways between 20 s and 40 s: the heading must not follow it.
        let magnet = Vector3(40, 0, 10)
        let fieldAt: (Double) -> Vector3? = { t in t >= 20 && t < 40 ? self.field + magnet : self.field }
        var filter = AttitudeFilter()
        var disturbedFlags = 0, worstHeading = 0.0
        run(&filter, seconds: 70, fieldAt: fieldAt, truth: truth) { t, f in
            if t > 20.5 && t < 40 && f.isMagneticallyDisturbed { disturbedFlags += 1 }
            if t > 20 { worstHeading = max(worstHeading, headingErrorDegrees(f.attitude, truth(t + dt))) }
        }
        #expect(Double(disturbedFlags) > 0.95 * 19.5 / dt)
        #expect(worstHeading < 2, "worst heading error \(worstHeading)°")
        #expect(!filter.isMagneticallyDisturbed)
    }

    @Test func fieldThatChangesForGoodIsAdopted() {
        // Moving to another room: a 25 % stronger field with another dip, uniform, from 10 s on.
        let newField = Vector3(0, 28, -50)
        let truth: (Double) -> Quaternion = { t in EulerAngles(roll: 0.2 * sin(t), pitch: 0.3 * sin(0.7 * t), yaw: 1.2 * sin(0.4 * t)).quaternion }
        var filter = AttitudeFilter()
        run(&filter, seconds: 70, fieldAt: { t in t >= 10 ? newField : self.field }, truth: truth)
        #expect(!filter.isMagneticallyDisturbed)
        #expect(headingErrorDegrees(filter.attitude, truth(70)) < 2)
    }

    /// A field agrees with the reference when its strength and dip are within the trust tolerances, wherever
    /// it points in yaw (the gyro heading may have drifted); with the heading when it points north within the
    /// dip tolerance.
    @Test func aFieldAgreesWithTheReferenceByStrengthAndDipAlone() {
        var filter = AttitudeFilter()
        #expect(!filter.agreesWithReference(levelField: field), "no reference before any field")
        let truth: (Double) -> Quaternion = { t in EulerAngles(roll: 0.2 * sin(t), pitch: 0.3 * sin(0.7 * t), yaw: 1.2 * sin(0.4 * t)).quaternion }
        run(&filter, seconds: 20, truth: truth)
        let yawed = EulerAngles(roll: 0, pitch: 0, yaw: 2.0).quaternion.rotate(field)
        #expect(filter.agreesWithReference(levelField: field))
        #expect(filter.agreesWithReference(levelField: yawed))
        #expect(filter.agreesWithReference(levelField: field * 1.05))
        #expect(!filter.agreesWithReference(levelField: field * 1.2), "20 % stronger")
        // The same strength 15° steeper.
        let horizontal = (field.x * field.x + field.y * field.y).squareRoot()
        let dip = atan2(-field.z, horizontal) + 15 * Units.radiansPerDegree
        let steeper = Vector3(0, cos(dip), -sin(dip)) * field.length
        #expect(!filter.agreesWithReference(levelField: steeper), "15° steeper")
        // The heading: the filter's level frame is the truth's here, so the field itself points north.
        #expect(filter.agreesWithHeading(levelField: field))
        #expect(filter.agreesWithHeading(levelField: EulerAngles(roll: 0, pitch: 0, yaw: 0.1).quaternion.rotate(field)), "5.7° off")
        #expect(!filter.agreesWithHeading(levelField: yawed), "115° off")
    }

    @Test func withoutMagnetometerTiltIsRightAndHeadingHasNoReference() {
        var settings = AttitudeFilter.Settings()
        settings.useMagnetometer = false
        var filter = AttitudeFilter(settings: settings)
        let truth: (Double) -> Quaternion = { t in EulerAngles(roll: 0.3 * sin(0.9 * t), pitch: 0.4 * sin(0.5 * t), yaw: t * 0.5).quaternion }
        run(&filter, seconds: 30, truth: truth)
        #expect(!filter.hasHeadingReference)
        #expect(inclinationErrorDegrees(filter.attitude, truth(30)) < 0.5)
    }

    @Test func droppedSamplesAndJitterDoNotDisturbTheEstimate() {
        // Constant turn at 90 °/s about up with 10 % of samples lost and ±1 ms timestamp jitter.
        let truth: (Double) -> Quaternion = { t in EulerAngles(roll: 0.1, pitch: -0.2, yaw: 0.5 * .pi * t).quaternion }
        var filter = AttitudeFilter()
        var lastT = 0.0
        var worst = 0.0
        var seed: UInt64 = 42
        func uniform() -> Double { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Double(seed >> 11) / 9007199254740992 }
        var t = 0.0
        while t < 30 {
            let next = t + dt + (uniform() * 2 - 1) * 0.001
            if uniform() < 0.1 { t = next; continue }   // sample lost on the bus
            let q = truth(t)
            // The gyro reads the rate at its sample; the interval since the last delivered sample is what the
            // filter is told. Rate is constant here, so integration over any interval is exact.
            let rate = q.inverseRotate(Vector3(0, 0, 0.5 * .pi))
            filter.update(gyro: rate, accel: q.inverseRotate(gravity), mag: q.inverseRotate(field), dt: t - lastT)
            lastT = t
            worst = max(worst, errorDegrees(filter.attitude, q))
            t = next
        }
        #expect(worst < 1.5, "worst error \(worst)°")
    }

    @Test func nonFiniteSamplesAreIgnored() {
        let truth = EulerAngles(roll: 0.1, pitch: 0.2, yaw: 0.3).quaternion
        var filter = AttitudeFilter()
        run(&filter, seconds: 2, truth: { _ in truth })
        filter.update(gyro: Vector3(.nan, 0, 0), accel: truth.inverseRotate(gravity), mag: nil, dt: dt)
        filter.update(gyro: .zero, accel: Vector3(.infinity, 0, 0), mag: nil, dt: dt)
        filter.update(gyro: .zero, accel: truth.inverseRotate(gravity), mag: nil, dt: .nan)
        #expect(filter.attitude.isFinite)
        #expect(errorDegrees(filter.attitude, truth) < 0.5)
    }
}
