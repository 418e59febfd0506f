#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Testing
@testable import Gestures

/// A gesture at the start counts: a detector (and attitude filter) that starts while the first swing of a nod or
/// shake is already under way finds it, and the nose-down rule still keeps a pull-back from being a nod. The truth
/// is analytic motion (`HeadMotion`) whose recording begins mid-swing, at 50 Hz, through the product's path with
/// the headphone mount, the sensor at the ear off the neck's pivot.
@Suite struct FreshStartTests {
    static let offset = Vector3(0.01, 0.075, 0.04)

    /// Down 14° at 100 °/s and straight back up at 80 °/s (nose-down is positive pitch), from `onset`.
    static func nod(onset: Double) -> (HeadMotion, down: Double) {
        var m = HeadMotion()
        let down = Double.pi * 14 / (2 * 100), up = Double.pi * 14 / (2 * 80)
        m.pitch = [.turn(start: onset, duration: down, angle: 14 * degrees),
                   .turn(start: onset + down, duration: up, angle: -14 * degrees)]
        m.sensorOffset = offset
        return (m, down)
    }

    @Test(arguments: [0.0, 0.2, 0.4])
    func aNodCaughtInItsFirstSwingIsFound(fraction: Double) throws {
        // The recording begins when the first swing (down) is already `fraction` of the way through, before its
        // fastest moment: the filter's first vertical comes from one accelerometer sample taken mid-swing.
        let (m, down) = Self.nod(onset: 1)
        let start = 1 + fraction * down
        #expect(try replayedEvents(m, hz: 50, duration: 1, from: start, board: "-x,z,y", mount: "-x,z,y") == [.nod])
    }

    @Test(arguments: [0.0, 0.1, 0.2, 0.3])
    func aShakeCaughtInItsFirstSwingIsFound(fraction: Double) throws {
        // A vigorous shake, out 30° at 350 °/s and back 54° past the middle at 280 °/s, worn as headphones (the
        // sensor 9 cm beside the neck's axis). The out swing accelerates the sensor sideways by up to 13 m/s²
        // (140 rad/s²; the shared headphone shakes reach 110 rad/s²), so the filter's first vertical, from one
        // accelerometer sample, is tens of degrees off and settles during the swing: the split of its rate
        // into a turn and a tilt moves, which says nothing about the swing's own axis.
        var m = HeadMotion()
        let out = Double.pi * 30 / (2 * 350)
        m.yaw = [.turn(start: 1, duration: out, angle: 30 * degrees),
                 .turn(start: 1 + out, duration: Double.pi * 54 / (2 * 280), angle: -54 * degrees)]
        m.sensorOffset = Vector3(0.01, 0.09, 0.04)
        let start = 1 + fraction * out
        #expect(try replayedEvents(m, hz: 50, duration: 1, from: start, board: "-x,z,y", mount: "-x,z,y") == [.shake])
        #expect(try replayedEvents(m, hz: 50, duration: 1, from: start, board: "-x,z,y", mount: nil) == [.shake])
    }

    @Test func aNodCaughtInItsUpSwingIsFound() throws {
        // Nodding down-up-down-up (0.45 s a swing at 60 °/s, 17° each way); the one-second recording begins
        // during the first up swing, so the first swing seen is nose-up. What came before it was not seen and it
        // is no pull-back: the nod is its up and the down that follows, not the next down-up, which ends too late.
        var m = HeadMotion()
        m.pitch = [.halfWaves(start: 1, count: 4, halfPeriod: 0.45, peakRate: 60 * degrees)]
        m.sensorOffset = Self.offset
        #expect(try replayedEvents(m, hz: 50, duration: 1, from: 1.55, board: "-x,z,y", mount: "-x,z,y") == [.nod])
    }

    /// A pull-back: nose up 15° at 200 °/s and down again at 150 °/s after 0.1 s; with `carry` (m) the trunk
    /// takes the head back and forward over the same legs.
    static func pullBack(carry: Double) -> HeadMotion {
        var m = HeadMotion()
        let up = Double.pi * 15 / (2 * 200), down = Double.pi * 15 / (2 * 150)
        m.pitch = [.turn(start: 1, duration: up, angle: -15 * degrees),
                   .turn(start: 1 + up + 0.1, duration: down, angle: 15 * degrees)]
        m.sensorOffset = offset
        m.horizontalAcceleration = { t in
            // The head faces east (+x): back is −x, then forward again.
            (HeadMotion.carriageLeg(t, start: 1, duration: up, distance: -carry)
                + HeadMotion.carriageLeg(t, start: 1 + up + 0.1, duration: down, distance: carry), 0)
        }
        return m
    }

    @Test func aPullBackIsStillNoNod() throws {
        // From rest: it starts nose-up, which a two-swing nod does not; the head's rotation alone says so.
        #expect(try replayedEvents(Self.pullBack(carry: 0), hz: 50, duration: 3, board: "-x,z,y", mount: "-x,z,y").isEmpty)
        #expect(try replayedEvents(Self.pullBack(carry: 0.15), hz: 50, duration: 3, board: "-x,z,y", mount: "-x,z,y").isEmpty)
        // Caught mid-way, how it began is not seen, but the trunk carrying the head 15 cm says it is no nod.
        #expect(try replayedEvents(Self.pullBack(carry: 0.15), hz: 50, duration: 1, from: 1.02, board: "-x,z,y",
                                   mount: "-x,z,y").isEmpty)
    }
}
