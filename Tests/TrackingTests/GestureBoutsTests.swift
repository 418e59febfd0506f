import Foundation
import Geometry
import Gestures
import Testing
@testable import Tracking

/// Bouts from gesture reports and the head's rate, at 100 Hz inputs this test makes: the truth is when the
/// test's head stops moving about the bout's axes.
struct GestureBoutsTests {
    static let up = Vector3(0, 0, 1)

    /// Nodding at 2 Hz, 60 °/s peak, about the head's left axis, from `from` to `to` (s).
    static func nod(_ bouts: inout GestureBouts, from: Double, to: Double) {
        var t = from
        while t < to {
            let rate: Double = sin(4 * Double.pi * t) * 60 * Double.pi / 180
            bouts.sample(t: t, gyro: Vector3(0, rate, 0), up: up)
            t += 0.01
        }
    }

    static func still(_ bouts: inout GestureBouts, from: Double, to: Double, gyro: Vector3 = .zero) {
        var t = from
        while t < to {
            bouts.sample(t: t, gyro: gyro, up: up)
            t += 0.01
        }
    }

    @Test func reportsWhileTheHeadNodsAreOneBoutThatEndsWhenItStops() {
        var b = GestureBouts()
        Self.nod(&b, from: 0, to: 1)
        #expect(b.gesture(.nod, t: 1) == 1)
        Self.nod(&b, from: 1, to: 4)
        #expect(b.gesture(.nod, t: 4) == 1, "a second report of the same nodding is the same bout")
        Self.nod(&b, from: 4, to: 6)
        #expect(b.active && b.ended == 0)
        Self.still(&b, from: 6, to: 8)
        #expect(!b.active && b.ended == 1)
        #expect(b.lastEnded.id == 1 && b.lastEnded.kind == .nod && b.lastEnded.gestures == 2)
        // The head last turned at 30 °/s 1/24 s before 6 s (60 °/s × sin = 30 °/s there): the end is noticed
        // 0.5 s later.
        #expect(abs(b.lastEnded.t - (6 - 1.0 / 24 + 0.5)) <= 0.011, "\(b.lastEnded.t)")
        Self.nod(&b, from: 8, to: 9)
        #expect(b.gesture(.nod, t: 9) == 2, "nodding again after a stop is a new bout")
    }

    @Test func turningTheHeadDoesNotKeepANodBoutGoingAndAnotherGestureEndsIt() {
        var b = GestureBouts()
        Self.nod(&b, from: 0, to: 1)
        b.gesture(.nod, t: 1)
        // Turning about the vertical at 40 °/s: no nodding movement, so the nod bout ends 0.5 s on.
        Self.still(&b, from: 1, to: 2, gyro: Vector3(0, 0, 40 * .pi / 180))
        #expect(b.ended == 1 && abs(b.lastEnded.t - 1.5) <= 0.011, "\(b.lastEnded.t)")
        b.gesture(.shake, t: 2)
        Self.still(&b, from: 2, to: 2.5, gyro: Vector3(0, 0, 40 * .pi / 180))
        #expect(b.gesture(.nod, t: 2.5) == 3, "a nod during a shake bout is a bout of its own")
        #expect(b.ended == 2 && b.lastEnded.id == 2 && b.lastEnded.kind == .shake && b.lastEnded.t == 2.5)
    }

    @Test func anInterruptedBoutEndsWhereTheHeadLastMoved() {
        var b = GestureBouts()
        b.gesture(.shake, t: 1)
        Self.still(&b, from: 1, to: 1.5, gyro: Vector3(0, 0, 1))
        b.interrupt()
        #expect(!b.active && b.ended == 1 && abs(b.lastEnded.t - 1.49) < 0.011)
        #expect(b.gesture(.shake, t: 2) == 2)
    }
}
