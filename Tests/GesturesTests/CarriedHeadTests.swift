#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Testing
@testable import Gestures

/// The carriage rule (`Settings.leverArm`): a nod turns the head about the neck, so a sensor off the pivot
/// accelerates by no more than that rotation explains; a head carried by the trunk (a boxer's pull-back) moves
/// further. The truth is analytic motion: one down-up pitch rotation with the sensor 6 cm above and 2 cm ahead
/// of the pivot, its specific force from rigid-body kinematics, with or without the whole head carried.
@Suite struct CarriedHeadTests {
    /// One down-up nod (12° each way, 0.25 s a swing, from 1.5 s) at 200 Hz. `carry` (m) moves the whole head
    /// straight back and forward again during the nod, over the nod's own duration.
    func nods(carry: Double, accelLag: Double = 0) -> [GestureEvent] {
        var d = GestureDetector(settings: GestureDetector.Settings(), headAxesKnown: true)
        d.listening = true   // a single nod: the rules of answer mode
        let angle = 12 * Units.radiansPerDegree, half = 0.25, onset = 1.5
        let offset = Vector3(0.02, 0, 0.06)          // sensor relative to the pivot, head frame (m)
        /// Attitude, rate and specific force at `t`: θ = angle·(1 − cos(2πu))/2 over the two swings, the
        /// carriage x = −carry·(1 − cos(2πu))/2.
        func motion(at t: Double) -> (attitude: Quaternion, gyro: Vector3, accel: Vector3) {
            var pitch = 0.0, rate = 0.0, spin = 0.0, carried = 0.0
            if t > onset && t < onset + 2 * half {
                let w = 2 * Double.pi / (2 * half), u = t - onset
                pitch = angle * (1 - cos(w * u)) / 2
                rate = angle * w / 2 * sin(w * u)
                spin = angle * w * w / 2 * cos(w * u)
                carried = -carry * w * w / 2 * cos(w * u)
            }
            let attitude = Quaternion(axis: Vector3(0, 1, 0), angle: pitch)
            let gyro = Vector3(0, rate, 0)
            let lever = Vector3(0, spin, 0).cross(offset) + gyro.cross(gyro.cross(offset))
            return (attitude, gyro, attitude.inverseRotate(Vector3(carried, 0, Units.standardGravity)) + lever)
        }
        var found: [GestureEvent] = []
        for i in 0..<800 {
            let t = Double(i) / 200
            let now = motion(at: t)
            // The accelerometer's path may lag the gyro's (different on-chip filter delays).
            let accel = motion(at: t - accelLag).accel
            if let e = d.update(t: t, gyro: now.gyro, accel: accel, attitude: now.attitude) { found.append(e) }
        }
        return found
    }

    @Test func theRuleDoesNotNeedTheAccelerometerInStepWithTheGyro() {
        // 10 ms of lag (the spread of MEMS on-chip filter delays) between the two sensors' paths: the rule
        // compares peak holds, not instants, so the nod stays a nod and the carried head stays none.
        #expect(nods(carry: 0, accelLag: 0.010) == [.nod])
        #expect(nods(carry: 0.12, accelLag: 0.010).isEmpty)
    }

    @Test func aNodWithTheSensorOffThePivotIsANod() {
        // The sensor's own acceleration from the rotation (up to 6.3 cm × 12°·(2π/0.5 s)²/2 ≈ 1.0 m/s²) is
        // what a nod is allowed.
        #expect(nods(carry: 0) == [.nod])
    }

    @Test func theSameRotationWithTheHeadCarriedBackIsNoNod() {
        // A pull-back moves the head 10–25 cm with the trunk; 12 cm over this 0.5 s accelerates it by
        // ±0.12·(2π/0.5)²/2 ≈ ±9.5 m/s², far more than the rotation explains.
        #expect(nods(carry: 0.12).isEmpty)
    }

    @Test func aSmallSwayOfTheBodyDoesNotHideTheNod() {
        // 1 cm of sway during the nod: ±0.8 m/s², within the floor.
        #expect(nods(carry: 0.01) == [.nod])
    }
}
