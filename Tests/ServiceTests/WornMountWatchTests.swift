#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Simulation
import Cohorts
import Testing
@testable import Service

/// Learning while worn: a synthetic wearer of the cohort wears the board for minutes, resting (looking ahead)
/// and nodding now and then, or tilting the head; the watch says something only when the configured mount
/// disagrees with that for minutes, once, or, with no mount configured, which mount the head shows.
@Suite struct WornMountWatchTests {
    static let cohort = GestureCohort(wearers: 50, seed: 5)
    static let degree = Units.radiansPerDegree

    /// `seconds` of wear: the wearer's guided-step trials (rest, then 3–4 nods) one after another, or one long
    /// tilt trial (roll toward either shoulder, held, back, again 1–3 s later) when `tilting`.
    static func wear(wearer: Int, seconds: Double, tilting: Bool = false) -> (samples: [(Double, Vector3, Vector3)], nominal: Mount) {
        var out: [(Double, Vector3, Vector3)] = []
        var offset = 0.0, k = 0
        var nominal = Mount.identity
        while offset < seconds {
            let trial: CohortTrial
            if tilting {
                var long = cohort
                long.distractorSeconds = seconds
                trial = long.trial(wearer: wearer, kind: .tilt)
                nominal = trial.mount
            } else {
                let g = cohort.guidedMountTrial(wearer: wearer, askew: 5 * degree, nods: 3 + k % 2)
                trial = g.trial
                nominal = g.nominal
            }
            for i in trial.t.indices { out.append((offset + trial.t[i], trial.gyro[i], trial.accel[i])) }
            offset += trial.duration + 1 / trial.rateHz
            k += 1
        }
        return (out, nominal)
    }

    static func findings(_ watch: inout WornMountWatch, _ samples: [(Double, Vector3, Vector3)]) -> [(Double, WornMountWatch.Finding)] {
        var found: [(Double, WornMountWatch.Finding)] = []
        for (t, g, a) in samples { if let f = watch.add(t: t, gyro: g, accel: a) { found.append((t, f)) } }
        return found
    }

    /// The same head axes, turned by `angle` about the head's up: forward and left exchanged at 90°.
    static func turned(_ m: Mount, aboutUpBy angle: Double) -> Mount {
        let c = cos(angle), s = sin(angle)
        return Mount(forward: m.forward * c + m.left * s, left: m.left * c - m.forward * s, up: m.up)
    }

    @Test func theRightMountIsNeverWarnedAbout() {
        for w in [0, 1, 2] {
            let (samples, nominal) = Self.wear(wearer: w, seconds: 240)
            var watch = WornMountWatch(configured: nominal)
            #expect(Self.findings(&watch, samples).isEmpty, "wearer \(w)")
        }
    }

    @Test func leftAndForwardSwappedIsWarnedAboutOnceAfterMinutes() {
        for w in [0, 1, 2] {
            let (samples, nominal) = Self.wear(wearer: w, seconds: 480)
            var watch = WornMountWatch(configured: Self.turned(nominal, aboutUpBy: .pi / 2))
            let found = Self.findings(&watch, samples)
            #expect(found.count == 1, "wearer \(w): \(found.map { $0.1.text })")
            guard let (t, f) = found.first, case let .disagrees(axis, degrees, seconds, evidence, shown) = f else { continue }
            #expect(axis == .left && degrees > 45 && seconds >= 180 && evidence >= 3 && t >= 180)
            #expect(shown == nominal, "wearer \(w): the head shows \(shown?.argument ?? "nothing"), worn as \(nominal)")
            #expect(f.isWarning && f.text.contains("left axis") && f.text.contains("calibrate --mount"))
        }
    }

    @Test func aMountWornBackwardsIsWarnedAboutFromTheChinDownStart() {
        let (samples, nominal) = Self.wear(wearer: 3, seconds: 300)
        var watch = WornMountWatch(configured: Self.turned(nominal, aboutUpBy: .pi))
        let found = Self.findings(&watch, samples)
        #expect(found.count == 1)
        if case let .disagrees(axis, degrees, _, _, _)? = found.first?.1 { #expect(axis == .left && degrees > 135) }
    }

    @Test func aWrongUpIsWarnedAboutFromTheRestsBeforeNods() {
        let (samples, nominal) = Self.wear(wearer: 4, seconds: 300)
        // Up and forward exchanged (left kept): nods still turn about the configured left; rests do not agree.
        let wrong = Mount(forward: nominal.up, left: nominal.left, up: -nominal.forward)
        var watch = WornMountWatch(configured: wrong)
        let found = Self.findings(&watch, samples)
        #expect(found.count == 1)
        if case let .disagrees(axis, degrees, _, _, _)? = found.first?.1 { #expect(axis == .up && degrees > 60) }
    }

    @Test func withNoMountTheHeadsMountIsSaidOnce() {
        let (samples, nominal) = Self.wear(wearer: 5, seconds: 120)
        var watch = WornMountWatch(configured: nil)
        let found = Self.findings(&watch, samples)
        #expect(found.count == 1)
        if case let .learned(m, nods)? = found.first?.1 {
            #expect(m == nominal && nods >= 3)
            #expect(!found[0].1.isWarning && found[0].1.text.contains(nominal.argument))
        } else {
            Issue.record("no learned mount: \(found)")
        }
    }

    /// A headset put down on its side on a table for ten minutes (sensor noise, and a bump of the table every
    /// 20 s, so the rest is many rests): it says nothing about the head, so nothing is said.
    @Test func aHeadsetPutDownIsNoEvidence() {
        var random = SeededRandom(seed: 9)
        let gravity = Vector3(0, 9.80665, 0)      // sensor y up: on its side for an x,y,z board
        var right = WornMountWatch(configured: .identity)
        var none = WornMountWatch(configured: nil)
        for i in 0..<(600 * 200) {
            let t = Double(i) / 200
            let bump = t.truncatingRemainder(dividingBy: 20) < 0.1 ? 1.0 : 0.0
            let g = random.gaussianVector() * (0.002 + 0.3 * bump), a = gravity + random.gaussianVector() * (0.03 + 2 * bump)
            #expect(right.add(t: t, gyro: g, accel: a) == nil)
            #expect(none.add(t: t, gyro: g, accel: a) == nil)
        }
    }

    /// Minutes of tilting the head toward either shoulder with the right mount: no warning, and nothing learned.
    @Test func tiltingForMinutesIsNoEvidence() {
        let (samples, nominal) = Self.wear(wearer: 6, seconds: 300, tilting: true)
        var right = WornMountWatch(configured: nominal)
        #expect(Self.findings(&right, samples).isEmpty)
        var none = WornMountWatch(configured: nil)
        #expect(Self.findings(&none, samples).isEmpty)
    }
}
