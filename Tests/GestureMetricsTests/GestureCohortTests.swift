import LibC
import Geometry
import Gestures
import Simulation
import Cohorts
import Testing
@testable import GestureMetrics

/// The detector on the seeded synthetic cohort (`GestureCohort`): virtual wearers and devices drawn from the
/// gesture model. The truth is what each virtual wearer was made to do. Seeded, so the floors are exact
/// figures of one fixed cohort, not timing.
@Suite struct GestureCohortTests {
    static let cohort = GestureCohort(wearers: 12, seed: 3)

    func scores(_ detector: GestureEvaluation.Detector, _ kinds: [CohortKind]) -> [CohortKind: GestureCohortEvaluation.KindScore] {
        let e = GestureCohortEvaluation(cohort: Self.cohort, recognizer: RecognizerUnderTest(detector: detector, listening: true))
        return Dictionary(uniqueKeysWithValues: e.run(kinds: kinds).map { ($0.kind, $0) })
    }

    @Test func theCohortIsReproducibleAndCoversTheDeviceRange() {
        let a = Self.cohort.trial(wearer: 4, kind: .singleNod), b = Self.cohort.trial(wearer: 4, kind: .singleNod)
        #expect(a.t == b.t && a.gyro == b.gyro)
        let rates = (0..<200).map { GestureCohort(wearers: 200, seed: 3).device(wearer: $0).rateHz }
        #expect(rates.min()! >= 25 && rates.max()! <= 1000)
        #expect(rates.filter { $0 < 50 }.count > 20 && rates.filter { $0 > 500 }.count > 20)
    }

    @Test func everyGestureKindIsFoundOnceSoonAfterItsCompletingSwingPeaks() {
        let s = scores(.default, CohortKind.gestures)
        for kind in CohortKind.gestures {
            guard let k = s[kind] else { Issue.record("no score for \(kind)"); continue }
            #expect((k.recall ?? 0) >= 0.97, "\(kind): recall \(k.recall ?? 0)")
            #expect((k.flashesPerGesture ?? 9) <= 1.1, "\(kind): \(k.flashesPerGesture ?? 0) flashes per gesture")
            #expect(k.confusions == 0, "\(kind)")
            #expect((k.medianLatency ?? 9) <= 0.15, "\(kind): median latency \(k.medianLatency ?? 0)")
        }
    }

    @Test func glancesTiltsTalkingAndLookingAroundAreNoGestures() {
        let kinds: [CohortKind] = [.glance, .lookAround, .tilt, .talking, .chewing]
        let s = scores(.default, kinds)
        for kind in kinds {
            #expect((s[kind]?.falsePerMinute ?? 9) <= 0.2, "\(kind): \(s[kind]?.falsePerMinute ?? 0) false/min")
        }
    }

    @Test func glancesAtTheKeysAndDrawnShapesAreNoGesturesWithoutAQuestion() {
        // Out-and-backs measured on real typing, and shapes drawn with the head: nobody made a gesture. With no
        // question pending a nod or shake needs two cycles, which neither makes.
        let kinds: [CohortKind] = [.keyGlance, .drawing]
        let alwaysOn = GestureCohortEvaluation(cohort: Self.cohort, recognizer: RecognizerUnderTest(listening: false)).run(kinds: kinds)
        for s in alwaysOn { #expect(s.falseEvents == 0, "\(s.kind): \(s.falseEvents) false events") }
        // Not an empty row: with a question pending, single out-and-backs from a still head do answer it (the
        // open part of answer mode, as on the typing recordings).
        let asked = GestureCohortEvaluation(cohort: Self.cohort, recognizer: RecognizerUnderTest(listening: true)).run(kinds: [.keyGlance])
        #expect((asked.first?.falseEvents ?? 0) > 0, "no glance at the keys looks like a single nod or shake")
    }

    /// False events over `kinds` for the same 30 wearers (seed 3), answer mode, with `settings`.
    static func falseEvents(_ kinds: [CohortKind], _ settings: GestureDetector.Settings) -> Int {
        GestureCohortEvaluation(cohort: GestureCohort(wearers: 30, seed: 3),
                                recognizer: RecognizerUnderTest(settings: settings, listening: true))
            .run(kinds: kinds).reduce(0) { $0 + $1.falseEvents }
    }

    @Test func theHeadsBounceTellsTheFirstStepsOfWalkingAndRunningFromNods() {
        // Before the 2 s lead-in rule bites, the first steps are told from a nod by the head's vertical
        // bounce, which the cohort's gait makes at the step rate (heel strikes). The truth: no nod was made.
        // The same 30 wearers with the bounce rule switched off (an infinite floor) as the reference.
        var off = GestureDetector.Settings()
        off.bounceFloor = .infinity
        let with = Self.falseEvents([.walking, .running], .default), without = Self.falseEvents([.walking, .running], off)
        #expect(without >= 10, "the first steps look like nods without the rule: \(without)")
        #expect(Double(with) <= 0.6 * Double(without), "\(with) false nods with the rule, \(without) without")
        // 40 min of gait in all: 0.3/min would be 12 events (the issue's target is 0.2/min; see the closing note).
        #expect(with <= 12, "\(with) false nods in 40 min of walking and running")
    }

    @Test func theHeadCarriedByTheTrunkTellsBoxingDodgesFromNods() {
        // A pull-back, slip or weave is made with the trunk and carries the head 10–25 cm; a nod only turns
        // it. Chains of pull-backs make up-down-up pitch runs that pass every swing rule. The truth: no nod
        // was made. The same 30 wearers with the carriage rule off (an infinite floor) as the reference.
        var off = GestureDetector.Settings()
        off.bounceFloor = .infinity
        let with = Self.falseEvents([.boxing], .default), without = Self.falseEvents([.boxing], off)
        #expect(without >= 10, "dodges look like nods without the rule: \(without)")
        #expect(Double(with) <= 0.4 * Double(without), "\(with) false events with the rule, \(without) without")
        // 20 min of boxing: the issue's 0.2/min would be 4 events.
        #expect(with <= 6, "\(with) false events in 20 min of boxing")
    }

    @Test func withoutAMountATiltIsTakenForANodButNodsStayRight() {
        // What the README and --help say of a headset configured without `mount`: gravity still gives the
        // vertical, so a nod comes out right, but roll cannot be told from pitch. The truth: the virtual
        // wearers tilted their heads to a shoulder, and nodded where they were made to.
        var e = GestureCohortEvaluation(cohort: Self.cohort, recognizer: RecognizerUnderTest(listening: true))
        e.mountKnown = false
        let unmounted = Dictionary(uniqueKeysWithValues: e.run(kinds: [.tilt, .singleNod]).map { ($0.kind, $0) })
        #expect((unmounted[.tilt]?.falseEvents ?? 0) >= 3, "tilts taken for nods: \(unmounted[.tilt]?.falseEvents ?? 0)")
        #expect(scores(.default, [.tilt])[.tilt]?.falseEvents == 0, "with the mount no tilt is a nod")
        #expect((unmounted[.singleNod]?.recall ?? 0) >= 0.97 && unmounted[.singleNod]?.confusions == 0)
    }

    @Test func withoutAMountAShakeMadeLookingDownIsMissedAndWithItTaken() {
        // The neck turns the head about its own up axis: a "no" made looking down θ turns about an axis θ from
        // the vertical, so about gravity only cos θ of it is yaw and the rest looks like roll; the dominance of
        // 2 refuses it beyond atan(1/2) = 27°. The mount names the head's axes and takes it at any posture.
        // The truth: each wearer shook once, looking where the cohort drew (up 20° to down 40°), measured
        // here from the first sample's gravity in the head's axes (the board sits up to 10° askew).
        let cohort = GestureCohort(wearers: 100, seed: 3)
        var found: [(down: Double, mounted: Bool, unmounted: Bool)] = []
        for w in 0..<cohort.wearers {
            let trial = cohort.trial(wearer: w, kind: .singleShake)
            guard let g = trial.gesture, let f = trial.accel.first else { continue }
            let down = asin(max(-1, min(1, -f.dot(trial.mount.forward) / f.length))) * 180 / Double.pi
            let window = (g.start - GestureScore.earlySlack)...(g.end + GestureScore.lateSlack)
            func taken(mountKnown: Bool) -> Bool {
                var e = GestureCohortEvaluation(cohort: cohort, recognizer: RecognizerUnderTest(listening: true))
                e.mountKnown = mountKnown
                return e.detections(in: trial).contains { $0.event == .shake && window.contains($0.t) }
            }
            found.append((down, taken(mountKnown: true), taken(mountKnown: false)))
        }
        // Measured with seed 3: every shake under 26° of this measure is taken without a mount, 4 of the 16 from
        // 30° on (the askew board and the shakes' roll cross-talk blur the 27° edge); all with the mount.
        let level = found.filter { $0.down <= 15 }, lookingDown = found.filter { $0.down >= 30 }
        #expect(level.count >= 50 && lookingDown.count >= 5, "\(level.count) level, \(lookingDown.count) looking down")
        func share(_ s: [(down: Double, mounted: Bool, unmounted: Bool)], _ key: KeyPath<(down: Double, mounted: Bool, unmounted: Bool), Bool>) -> Double {
            Double(s.filter { $0[keyPath: key] }.count) / Double(max(s.count, 1))
        }
        #expect(share(level, \.unmounted) >= 0.97 && share(level, \.mounted) >= 0.97)
        #expect(share(lookingDown, \.mounted) >= 0.97, "with the mount: \(share(lookingDown, \.mounted))")
        #expect(share(lookingDown, \.unmounted) <= 0.5, "without a mount: \(share(lookingDown, \.unmounted))")
    }

    @Test func lookingAroundIsNoShake() {
        // Glances whose hold drifts on while the eyes hold the target, look-backs over a shoulder, turning to
        // someone and back: the truth is that no gesture was made. Each is a turn out and back that reverses,
        // so the detector without its hold and width rules takes the first two for shakes.
        let kinds: [CohortKind] = [.driftingGlance, .lookBack, .turnToSomeone]
        let s = scores(.default, kinds)
        for kind in kinds {
            #expect((s[kind]?.falsePerMinute ?? 9) <= 0.2, "\(kind): \(s[kind]?.falsePerMinute ?? 0) false/min")
        }
        var off = GestureDetector.Settings()
        off.holdSpeedFraction = 0
        off.maxShakeExcursion = .infinity
        let without = GestureCohortEvaluation(cohort: Self.cohort, recognizer: RecognizerUnderTest(settings: off, listening: true)).run(kinds: [.driftingGlance, .lookBack])
        #expect(without.allSatisfy { $0.falseEvents >= 3 }, "without the rules: \(without.map(\.falseEvents))")
    }

    @Test(arguments: [CohortDevices.mixed, .earbud], [true, false])
    func boxingSlipsAndRollsAreNoShakes(devices: CohortDevices, mountKnown: Bool) {
        // The trunk turns the head and carries it 10–25 cm: the truth is that no gesture was made. With and
        // without the mount (the held-out boxing set has none), on the cohort's devices and on earbuds.
        let cohort = GestureCohort(wearers: 12, seed: 3, devices: devices)
        var e = GestureCohortEvaluation(cohort: cohort, recognizer: RecognizerUnderTest(listening: true))
        e.mountKnown = mountKnown
        let with = e.run(kinds: [.slips])[0]
        // 8 minutes of dodging: 0.2/min would be 1.6 events.
        #expect(with.falseEvents <= 1, "\(with.falseEvents) false events in \(with.minutes) min")
        var off = GestureDetector.Settings()
        off.shakeLeverArm = .infinity
        e.recognizer.settings = off
        let without = e.run(kinds: [.slips])[0]
        #expect(without.falseEvents >= 20, "the turn alone looks like shakes: \(without.falseEvents)")
    }

    @Test func earbudsSampleAsTheHeldOutEarbudsDo() {
        // 40–50 Hz, every reading a whole number of 8-bit steps within ±153 °/s and ±4 g.
        let cohort = GestureCohort(wearers: 6, seed: 3, devices: .earbud)
        let gyroStep = 2 * 153 * Units.radiansPerDegree / 256, accelStep = 8 * Units.standardGravity / 256
        for w in 0..<cohort.wearers {
            let trial = cohort.trial(wearer: w, kind: .shakes)
            #expect(trial.rateHz >= 40 && trial.rateHz <= 50)
            func whole(_ x: Double, _ step: Double) -> Bool { abs(x / step - (x / step).rounded()) < 1e-9 }
            let readings = trial.gyro.flatMap { [$0.x, $0.y, $0.z] }, forces = trial.accel.flatMap { [$0.x, $0.y, $0.z] }
            #expect(readings.allSatisfy { whole($0, gyroStep) && abs($0) <= 153 * Units.radiansPerDegree + 1e-12 })
            #expect(forces.allSatisfy { whole($0, accelStep) && abs($0) <= 4 * Units.standardGravity + 1e-12 })
        }
        // Vigorous shakes reach the gyro's end of range: some readings clip.
        let clipped = (0..<cohort.wearers).map { cohort.trial(wearer: $0, kind: .shakes).gyro }
            .flatMap { $0 }.filter { max(abs($0.x), abs($0.y), abs($0.z)) >= 153 * Units.radiansPerDegree - 1e-12 }
        #expect(!clipped.isEmpty, "no shake reaches ±153 °/s")
    }

    @Test func theClassicRecipeMissesGentleSingleGesturesAndFiresOnGlances() {
        // The baseline's known weaknesses, measured on the same wearers: a per-frame threshold misses slow
        // devices and gentle nods, and a glance is a "shake" to it.
        let s = scores(.classic, [.singleNod, .glance])
        #expect((s[.singleNod]?.recall ?? 1) < 0.6)
        #expect((s[.glance]?.falsePerMinute ?? 0) > 2)
    }
}
