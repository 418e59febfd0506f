#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Testing
@testable import Gestures

/// A boxer's slip is no shake (`Settings.shakeLeverArm`): the trunk turns the head 30° and carries it 15 cm
/// sideways in the same movement, as a point far from the turning axis moves, where a shake only turns it about
/// the neck. The truth is analytic motion: the sensor at the ear (7.5 cm to the side of the neck's axis, 4 cm
/// above), its specific force from rigid-body kinematics plus the carriage, sampled at 40 Hz (an earbud).
@Suite struct SlipTests {
    static let leg = 0.25, hold = 0.1, back = 0.3, onset = 1.5

    /// Yaw out by 30° over `leg` and back over `back` after `hold` (cosine speed profiles); with `carry` (m) the
    /// head is carried to its left and back over the same legs, the (1 − cos) position profile of a reach.
    static func slip(carry: Double) -> HeadMotion {
        var m = HeadMotion()
        m.yaw = [.turn(start: onset, duration: leg, angle: 30 * degrees),
                 .turn(start: onset + leg + hold, duration: back, angle: -30 * degrees)]
        m.sensorOffset = Vector3(0.01, 0.075, 0.04)
        m.horizontalAcceleration = { t in
            // The head faces east (yaw 0), so its left is north: out to the left, then back.
            (0, HeadMotion.carriageLeg(t, start: onset, duration: leg, distance: carry)
                + HeadMotion.carriageLeg(t, start: onset + leg + hold, duration: back, distance: -carry))
        }
        return m
    }

    @Test(arguments: [("-x,z,y", "-x,z,y"), ("y,z,x", "y,z,x"), ("-x,z,y", nil), ("x,y,z", nil)] as [(String, String?)])
    func aSlipCarriedByTheTrunkIsNoShake(board: String, mount: String?) throws {
        // Worn as headphones or an earbud, with the mount given and without one.
        #expect(try replayedEvents(Self.slip(carry: 0.15), hz: 40, duration: 3.5, board: board, mount: mount).isEmpty)
        // Only the head's acceleration tells it from a shake: without the rule it is one.
        var turnOnly = GestureDetector.Settings()
        turnOnly.shakeLeverArm = .infinity
        #expect(try replayedEvents(Self.slip(carry: 0.15), hz: 40, duration: 3.5, board: board, mount: mount,
                                   settings: turnOnly) == [.shake])
    }

    @Test(arguments: [("-x,z,y", "-x,z,y"), ("x,y,z", nil)] as [(String, String?)])
    func theSameTurnWithoutTheCarriageIsAShake(board: String, mount: String?) throws {
        // Out and back at once, 30°: a one-swing shake. The sensor's own rigid-body acceleration is allowed.
        #expect(try replayedEvents(Self.slip(carry: 0), hz: 40, duration: 3.5, board: board, mount: mount) == [.shake])
    }

    @Test func theRuleLooksAtTheHorizontalOnly() throws {
        // Heel strikes bounce the head up and down (±3 m/s² at 2 Hz while walking): a shake made then counts.
        var m = Self.slip(carry: 0)
        m.verticalAcceleration = { t in 3 * sin(2 * Double.pi * 2 * t) }
        #expect(try replayedEvents(m, hz: 40, duration: 3.5) == [.shake])
    }

    @Test func aSmallSlipIsNoShakeEither() throws {
        // 10 cm with 30° of turn moves the head as a point 19 cm from the turning axis would (0.10 m / 0.52 rad):
        // a pivot outside the head, beyond the rule's 15 cm.
        #expect(try replayedEvents(Self.slip(carry: 0.10), hz: 40, duration: 3.5).isEmpty)
    }
}
