#if canImport(Glibc)
import Glibc
#endif
import Fusion
import SensorCalibration
import Geometry
@testable import Simulation
import Testing
@testable import Service

/// The guided calibration fed by the simulated sensors, whose hard and soft iron are known.
@Suite struct CalibrationSessionTests {
    @Test func stillThenTurningRecoversGyroBiasAndIron() throws {
        var sensor = SensorModel()
        sensor.gyroBias = Vector3(0.015, -0.02, 0.008)
        sensor.hardIron = Vector3(-18, 31, 7.5)
        // Symmetric soft iron (only that part is observable from field strength).
        sensor.softIron = (Vector3(1.12, 0.05, 0), Vector3(0.05, 0.93, -0.02), Vector3(0, -0.02, 1.01))
        var session = CalibrationSession()
        let dt = 0.01
        var t = 0.0
        // 6 s still, then a slow tumble through every direction (two incommensurate rotations).
        while session.phase != .complete && t < 300 {
            let moving = max(0, t - 6)
            let attitude = EulerAngles(roll: 0.9 * moving, pitch: 0.45 * sin(0.31 * moving) * 3, yaw: 0.23 * moving).quaternion
            let state = MotionState(attitude: attitude, angularRate: .zero, linearAcceleration: .zero)
            let gyro = moving > 0 ? Vector3(0.9, 0.2, 0.23) : sensor.gyroscope(state)
            session.add(t: t, gyro: gyro, accel: sensor.accelerometer(state), mag: sensor.magnetometer(state, at: t))
            t += dt
        }
        #expect(session.phase == .complete)
        #expect(session.progressText(at: t).contains("%"))
        let (calibration, fit) = try session.result()
        #expect((calibration.gyroBias - sensor.gyroBias).length < 0.001)
        #expect((calibration.magnetometer.hardIron - sensor.hardIron).length / sensor.hardIron.length < 0.01)
        let trueSoft = Matrix3(rows: sensor.softIron.0, sensor.softIron.1, sensor.softIron.2)
        let product = calibration.magnetometer.softIron * trueSoft
        #expect((product * (1 / cbrt(product.determinant)) - .identity).maxAbs < 0.01)
        #expect(fit.coverage >= 0.5)
    }

    @Test func movingDuringTheStillPhaseRestartsIt() {
        var session = CalibrationSession()
        var t = 0.0
        for i in 0..<300 {
            let wobble = i > 150 && i < 200 ? 0.3 : 0.0
            session.add(t: t, gyro: Vector3(wobble, 0, 0), accel: Vector3(0, 0, 9.81), mag: nil)
            t += 0.01
        }
        #expect(session.restartedRest)
        #expect(session.phase == .keepStill)
        #expect(session.progressText(at: t).hasPrefix("moved"))
    }

    @Test func stoppingEarlyWithPoorCoverageIsRefused() {
        var settings = CalibrationSession.Settings()
        settings.measureGyro = false
        var session = CalibrationSession(settings: settings)
        // Only turning about the vertical: a ring of directions.
        for i in 0..<2000 {
            let q = Quaternion(axis: Vector3(0, 0, 1), angle: Double(i) * 0.01)
            session.add(t: Double(i) * 0.01, gyro: .zero, accel: Vector3(0, 0, 9.81), mag: q.inverseRotate(Vector3(0, 20, -45)))
        }
        #expect(session.phase == .turn)
        #expect(throws: EllipsoidFit.Failure.self) { try session.result() }
    }

    // MARK: The stop rule on the five situations a user produces

    /// A worn-looking sensor: AK8963-like noise (0.6 µT RMS per axis), a known hard and soft iron, 100 Hz.
    func sensor() -> SensorModel {
        var s = SensorModel()
        s.magNoise = 0.6
        s.hardIron = Vector3(30, -12, 8)
        s.softIron = (Vector3(1.2, 0.1, 0.05), Vector3(0.1, 0.85, -0.08), Vector3(0.05, -0.08, 1.0))
        return s
    }

    /// A hand-held tumble at human speed (about 50 °/s about x, slower about the others) after `stillFor` s.
    func attitude(at t: Double, stillFor: Double) -> Quaternion {
        let m = max(0, t - stillFor)
        return EulerAngles(roll: 0.9 * m, pitch: 1.3 * sin(0.31 * m), yaw: 0.23 * m).quaternion
    }

    func magnetometerOnly() -> CalibrationSession {
        var settings = CalibrationSession.Settings()
        settings.measureGyro = false
        return CalibrationSession(settings: settings)
    }

    /// Feeds `seconds` of 100 Hz samples from `sensor` at `attitude`, plus an optional extra field (ENU).
    func feed(_ session: inout CalibrationSession, _ model: inout SensorModel, seconds: Double,
              attitude: (Double) -> Quaternion, extraField: (Double) -> Vector3 = { _ in .zero },
              hasMagnetometer: Bool = true) -> Double? {
        var t = 0.0
        while t < seconds {
            let q = attitude(t)
            let state = MotionState(attitude: q, angularRate: .zero, linearAcceleration: .zero)
            let mag = model.magnetometer(state, at: t) + q.inverseRotate(extraField(t))
            session.add(t: t, gyro: model.gyroscope(state), accel: model.accelerometer(state),
                        mag: hasMagnetometer ? mag : nil)
            if session.phase == .complete { return t }
            t += 0.01
        }
        return nil
    }

    func expectRecovered(_ calibration: Calibration, _ model: SensorModel) {
        #expect((calibration.magnetometer.hardIron - model.hardIron).length < 1.0)
        let trueSoft = Matrix3(rows: model.softIron.0, model.softIron.1, model.softIron.2)
        let product = calibration.magnetometer.softIron * trueSoft
        #expect((product * (1 / cbrt(product.determinant)) - .identity).maxAbs < 0.02)
    }

    @Test func fiveStillSecondsBeforeTurningDoNotEndTheSession() throws {
        var model = sensor()
        var session = magnetometerOnly()
        // Still for 5 s first: the noise blob must not complete the turn.
        let done = feed(&session, &model, seconds: 5, attitude: { _ in .identity })
        #expect(done == nil)
        #expect(session.phase == .turn)
        #expect(session.magSamples.count < 20, "a still sensor adds almost no distinct samples")
        // Then turning completes it, and the fit is the sensor's.
        let completed = feed(&session, &model, seconds: 120, attitude: { self.attitude(at: $0, stillFor: 0) })
        #expect(completed != nil)
        let (calibration, fit) = try session.result()
        expectRecovered(calibration, model)
        #expect(fit.coverage >= 0.5 && fit.spread >= 0.25)
        #expect(abs(fit.fieldStrength - model.earthField.length) / model.earthField.length < 0.1)
    }

    @Test func noiseOnlyNeverCompletesAndIsRefusedAsTooLittleRotation() {
        var model = sensor()
        var session = magnetometerOnly()
        #expect(feed(&session, &model, seconds: 60, attitude: { _ in Quaternion(axis: Vector3(1, 1, 0).normalized, angle: 0.4) }) == nil)
        #expect(session.phase == .turn)
        #expect(throws: EllipsoidFit.Failure.self) { try session.result() }
        do { _ = try session.result() } catch {
            guard case .tooLittleRotation = error else { Issue.record("expected tooLittleRotation, got \(error)"); return }
            #expect(error.description.contains("too little rotation"))
        } 
    }

    @Test func halfATurnAboutOneAxisIsRefusedAsTooLittleRotation() {
        var model = sensor()
        var session = magnetometerOnly()
        // 180° about x over 6 s, then held: a half circle of field directions.
        let done = feed(&session, &model, seconds: 20, attitude: { t in
            Quaternion(axis: Vector3(1, 0, 0), angle: min(t / 6, 1) * .pi)
        })
        #expect(done == nil)
        do {
            _ = try session.result()
            Issue.record("a half turn was accepted")
        } catch {
            guard case .tooLittleRotation = error else { Issue.record("expected tooLittleRotation, got \(error)"); return }
            #expect(error.description.contains("turn the headset about all three axes"))
        }
    }

    @Test func aMagnetPassingDuringTheTurnIsRefusedAsAFieldChange() throws {
        var model = sensor()
        var session = magnetometerOnly()
        // A phone's magnet swept past in 1.5 s, peaking at 40 µT (ENU), early in the turn.
        let completed = feed(&session, &model, seconds: 120, attitude: { self.attitude(at: $0, stillFor: 0) },
                             extraField: { t in
                                 let x = (t - 8) / 0.75
                                 return abs(x) < 1 ? Vector3(40, -25, 10) * (1 - x * x) : .zero
                             })
        #expect(completed == nil, "the stop rule must not complete on a field that changed")
        #expect(session.progressText(at: 120).contains("the field is changing"), "told while turning, not only at the end")
        do {
            _ = try session.result()
            Issue.record("a turn with a magnet passing was accepted")
        } catch {
            guard case .fieldChanged = error else { Issue.record("expected fieldChanged, got \(error)"); return }
            #expect(error.description.contains("the field changed during the turn"))
            #expect(error.description.contains("magnet"))
        }
        // The robust fit still found the sensor's own ellipsoid under the magnet's samples.
        let fit = try EllipsoidFit.fitUnchecked(session.magSamples)
        #expect((fit.correction.hardIron - model.hardIron).length < 1.5)
    }

    @Test func aMagnetComingAndGoingIsRefusedAsAFieldChange() {
        var model = sensor()
        var session = magnetometerOnly()
        // A magnet on a moving desk: 25 µT present for one second in every two, all through the turn.
        let done = feed(&session, &model, seconds: 90, attitude: { self.attitude(at: $0, stillFor: 0) },
                        extraField: { t in Int(t) % 2 == 1 ? Vector3(15, 15, -10) : .zero })
        #expect(done == nil)
        do {
            _ = try session.result()
            Issue.record("a changing field was accepted")
        } catch {
            guard case .fieldChanged = error else { Issue.record("expected fieldChanged, got \(error)"); return }
            #expect(error.description.contains("the field changed during the turn"))
        }
    }

    @Test func noMagnetometerSaysSo() {
        var model = sensor()
        var session = magnetometerOnly()
        #expect(feed(&session, &model, seconds: 30, attitude: { self.attitude(at: $0, stillFor: 0) }, hasMagnetometer: false) == nil)
        #expect(throws: EllipsoidFit.Failure.noMagnetometer) { try session.result() }
        #expect(EllipsoidFit.Failure.noMagnetometer.description.contains("no magnetometer"))
    }
}
