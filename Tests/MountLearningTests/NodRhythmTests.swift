import Foundation
import Geometry
import Testing
@testable import MountLearning

/// `NodRhythm` on swings made by hand: alternating runs are series, pauses and other axes break them.
@Suite struct NodRhythmTests {
    static let degree = Units.radiansPerDegree
    static let left = Vector3(0, 1, 0)

    /// A swing of `degrees` about `axis` from `start`, lasting `length` s, peaking at 2× its mean rate.
    static func swing(_ start: Double, axis: Vector3, degrees: Double = 12, length: Double = 0.25) -> HeadSwing {
        HeadSwing(start: start, end: start + length, rotation: axis.normalized * (degrees * degree),
                  peak: 2 * degrees * degree / length)
    }

    /// Alternating swings about `axis`, back to back with `pause` s between them, from `from`.
    static func nods(_ count: Int, from: Double, axis: Vector3 = left, pause: Double = 0.05) -> [HeadSwing] {
        (0..<count).map { i in swing(from + Double(i) * (0.25 + pause), axis: i % 2 == 0 ? axis : axis * -1) }
    }

    static func rhythm(_ swings: [HeadSwing]) -> NodRhythm {
        var r = NodRhythm(settings: .init())
        for s in swings { r.add(s) }
        r.close()
        return r
    }

    @Test func alternatingSwingsAboutOneAxisAreOneSeries() throws {
        let r = Self.rhythm(Self.nods(6, from: 2))
        #expect(r.completed == 1)
        let s = try #require(r.latest)
        #expect(s.swings == 6 && s.cycles == 3)
        #expect(s.axis.dot(Self.left) > 0.9999)
        #expect(s.spread < 1e-9)
        #expect(s.fromRest)
        #expect(abs(s.start - 2) < 1e-9 && abs(s.end - (2 + 5 * 0.3 + 0.25)) < 1e-9)
    }

    @Test func aLongPauseStartsANewSeries() {
        // Two nods of two cycles, 1.5 s apart: a tilt held at the shoulder, or two answers.
        let r = Self.rhythm(Self.nods(4, from: 1) + Self.nods(4, from: 3.5))
        #expect(r.completed == 2)
        #expect(r.kept.map(\.swings) == [4, 4])
        // The second began 1.25 s after the first ended: at rest again.
        #expect(r.latest?.fromRest == true)
    }

    @Test func swingsThatLeaveTheSeriesAxisBreakIt() {
        // The third swing turns 30° away from the first two's axis (gait's pitch and roll mixing): the run ends.
        let off = Vector3(0, cos(30 * Self.degree), sin(30 * Self.degree))
        var swings = Self.nods(2, from: 1)
        swings.append(Self.swing(1.6, axis: off))
        swings.append(Self.swing(1.9, axis: off * -1))
        let r = Self.rhythm(swings)
        #expect(r.kept.allSatisfy { $0.swings == 2 }, "\(r.kept.map(\.swings))")
        #expect(r.completed == 2)
    }

    @Test func aSlowOrSmallSwingIsNoPartOfANod() {
        // A 1 s turn closes the series in progress; a 2° wobble neither continues nor ends it.
        var swings = Self.nods(2, from: 1)
        swings.append(HeadSwing(start: 1.65, end: 1.7, rotation: Self.left * (2 * Self.degree), peak: 1))
        swings.append(Self.swing(1.75, axis: Self.left))   // continues: the wobble did not break the series
        swings.append(Self.swing(2.2, axis: Self.left * -1, degrees: 30, length: 1.0))   // a slow turn: closes it
        let r = Self.rhythm(swings)
        #expect(r.completed == 1)
        #expect(r.latest?.swings == 3)
    }

    @Test func aSeriesRightAfterOtherMovementIsNotFromRest() {
        // A swing 0.3 s before the series, about another axis: the head was not at rest when it began.
        let r = Self.rhythm([Self.swing(0.75, axis: Vector3(0, 0, 1))] + Self.nods(4, from: 1.3))
        #expect(r.latest?.swings == 4)
        #expect(r.latest?.fromRest == false)
    }
}
