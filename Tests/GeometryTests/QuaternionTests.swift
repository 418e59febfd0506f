import Testing
import Geometry

@Suite struct QuaternionTests {
    @Test func rotatingXByNinetyDegreesAboutZGivesY() {
        let q = Quaternion(axis: Vector3(0, 0, 1), angle: .pi / 2)
        let v = q.rotate(Vector3(1, 0, 0))
        #expect(abs(v.x) < 1e-12 && abs(v.y - 1) < 1e-12 && abs(v.z) < 1e-12)
        let back = q.inverseRotate(v)
        #expect(abs(back.x - 1) < 1e-12)
    }

    @Test func productComposesRotationsRightToLeft() {
        // First 90° about x (y -> z), then 90° about z (z stays, so the result is z).
        let qx = Quaternion(axis: Vector3(1, 0, 0), angle: .pi / 2)
        let qz = Quaternion(axis: Vector3(0, 0, 1), angle: .pi / 2)
        let v = (qz * qx).rotate(Vector3(0, 1, 0))
        #expect((v - Vector3(0, 0, 1)).length < 1e-12)
    }

    @Test func rotationRowsRoundTrip() {
        let q = Quaternion(axis: Vector3(0.3, -0.5, 0.8), angle: 2.1)
        let rows = (q.inverseRotate(Vector3(1, 0, 0)), q.inverseRotate(Vector3(0, 1, 0)), q.inverseRotate(Vector3(0, 0, 1)))
        let r = Quaternion(rotationRows: rows.0, rows.1, rows.2)
        #expect((r * q.conjugate).angle < 1e-9)
    }

    @Test func eulerAnglesRoundTrip() {
        let e = EulerAngles(roll: 0.2, pitch: -0.4, yaw: 2.5)
        let back = EulerAngles(e.quaternion)
        #expect(abs(back.roll - 0.2) < 1e-12 && abs(back.pitch + 0.4) < 1e-12 && abs(back.yaw - 2.5) < 1e-12)
    }

    @Test func wrapAndShortestDifference() {
        #expect(wrapDegrees360(-10) == 350)
        #expect(wrapDegrees360(720.5) == 0.5)
        #expect(shortestDegrees(from: 350, to: 10) == 20)
        #expect(shortestDegrees(from: 10, to: 350) == -20)
    }
}
