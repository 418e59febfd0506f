import Testing
@testable import Fusion
import Geometry

/// Earth field used by the tests: 20 µT north, 45 µT down (ENU), a plausible mid-latitude field.
let earthField = Vector3(0, 20, -45)
let gravityUp = Vector3(0, 0, Units.standardGravity)

@Suite struct CompassTests {
    /// Sensor readings for a head with the given attitude: body-frame vectors of the earth quantities.
    func readings(_ q: Quaternion) -> (accel: Vector3, mag: Vector3) {
        (q.inverseRotate(gravityUp), q.inverseRotate(earthField))
    }

    @Test(arguments: [0.0, 45, 90, 180, 270, 359])
    func levelHeadingMatchesYaw(heading: Double) {
        // Facing `heading` clockwise from north means yaw (counter-clockwise from east) of 90 - heading.
        let q = Quaternion(axis: Vector3(0, 0, 1), angle: (90 - heading) * Units.radiansPerDegree)
        let r = readings(q)
        let reading = TiltCompensatedCompass().heading(accel: r.accel, mag: r.mag)
        #expect(reading.isValid)
        #expect(abs(shortestDegrees(from: heading, to: reading.degrees)) < 1e-9)
    }

    @Test func tiltDoesNotChangeHeading() {
        let facingEast = Quaternion(axis: Vector3(0, 0, 1), angle: 0)
        let tilted = facingEast * EulerAngles(roll: 0.5, pitch: -0.6, yaw: 0).quaternion
        let r = readings(tilted)
        let reading = TiltCompensatedCompass().heading(accel: r.accel, mag: r.mag)
        #expect(abs(shortestDegrees(from: 90, to: reading.degrees)) < 1e-9)
    }

    @Test func declinationIsAdded() {
        var settings = TiltCompensatedCompass.Settings()
        settings.declinationDegrees = -3.5
        let reading = TiltCompensatedCompass(settings: settings).heading(attitude: .identity, magnetometerTrusted: true)
        // Identity attitude: forward = east = 90° magnetic.
        #expect(abs(reading.degrees - 86.5) < 1e-9)
    }

    @Test func lookingStraightUpIsInvalid() {
        let up = Quaternion(axis: Vector3(0, 1, 0), angle: -.pi / 2)
        #expect(up.rotate(Vector3(1, 0, 0)).z > 0.99)
        let reading = TiltCompensatedCompass().heading(attitude: up, magnetometerTrusted: true)
        #expect(reading.validity == .headNearVertical)
    }
}
