import LibC
import Geometry
import Testing

/// The axis forms, the angle between mounts, the `--mount` text of a measured mount, and a frame made from a
/// measured up and left.
@Suite struct MountFormsTests {
    @Test func the24AxisFormsAreTheRightHandedAxisChoicesEachOnce() throws {
        #expect(Mount.axisForms.count == 24)
        #expect(Set(Mount.axisForms.map(\.description)).count == 24)
        for m in Mount.axisForms {
            #expect(m.isAxisForm)
            #expect(try Mount(parsing: m.description) == m)          // the parser accepts it: right-handed
            for other in Mount.axisForms where other != m {
                // Distinct proper rotations of the cube are 90°, 120° or 180° apart.
                let degrees = (other.angle(to: m) * Units.degreesPerRadian).rounded()
                #expect([90, 120, 180].contains(degrees), "\(m) to \(other): \(degrees)°")
            }
        }
    }

    @Test func angleIsTheRotationBetweenTheMounts() throws {
        let m = try Mount(parsing: "-x,z,y")
        for degrees in [0.0, 3, 20, 45, 90, 170] {
            let q = Quaternion(axis: Vector3(1, 2, 3).normalized, angle: degrees * Units.radiansPerDegree)
            // The same head axes turned by q: rows are head axes in sensor coordinates.
            let turned = Mount(forward: m.unapply(q.rotate(Vector3(1, 0, 0))), left: m.unapply(q.rotate(Vector3(0, 1, 0))),
                               up: m.unapply(q.rotate(Vector3(0, 0, 1))))
            #expect(abs(turned.angle(to: m) * Units.degreesPerRadian - degrees) < 1e-6)
            if degrees < 45 { #expect(turned.nearestAxisForm.mount == m) }
        }
    }

    @Test func aMeasuredMountIsWrittenAsNineNumbersThatReadBack() throws {
        let q = Quaternion(axis: Vector3(0.3, -1, 0.2).normalized, angle: 0.4)
        let m = Mount(forward: q.rotate(Vector3(1, 0, 0)), left: q.rotate(Vector3(0, 1, 0)), up: q.rotate(Vector3(0, 0, 1)))
        #expect(!m.isAxisForm)
        let text = m.argument
        #expect(text.split(separator: ",").count == 9)
        let back = try Mount(parsing: text)
        #expect(back.angle(to: m) < 1e-3)
        #expect(try Mount(parsing: "y,-x,z").argument == "y,-x,z")
        #expect(Mount.identity.argument == "x,y,z")
    }

    /// Up and left 10° from perpendicular: each is turned 5° towards the right angle in their plane.
    @Test func upAndLeftAreTurnedAlikeTowardsARightAngle() throws {
        let tilt = 10 * Units.radiansPerDegree
        let up = Vector3(0, 0, 1), left = Vector3(0, cos(tilt), sin(tilt))   // left 10° up out of the horizontal
        let m = try #require(Mount(up: up * 9.8, left: left * 3))
        #expect(abs(m.forward.dot(m.left)) < 1e-12 && abs(m.left.dot(m.up)) < 1e-12 && abs(m.up.length - 1) < 1e-12)
        #expect(abs(acos(m.up.dot(up)) - tilt / 2) < 1e-9)
        #expect(abs(acos(m.left.dot(left.normalized)) - tilt / 2) < 1e-9)
        #expect(m.forward.cross(m.left).dot(m.up) > 0.999)        // right-handed
        #expect(m.forward.x > 0.99)                                // left × up with left ≈ +y, up ≈ +z: forward ≈ +x
        #expect(Mount(up: up, left: Vector3(0, 0.1, 1)) == nil)    // 6° apart: no frame
    }
}
