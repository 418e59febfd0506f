import LibC
import Geometry
import Simulation

/// The movements of the cohort, each drawn from the range the gesture model gives for it (the table in
/// `GestureDetector.Settings`). Angles in degrees and rates in °/s where they are drawn, radians in the
/// trajectory.
enum CohortMotions {
    static let deg = Units.radiansPerDegree
    /// Longest gesture swing: half a cycle of the model's slowest gesture (0.8 Hz).
    static let longestSwing = 0.62

    /// A swing by `angle` (°) peaking at `peak` (°/s), its duration kept within a gesture's range.
    static func swing(at start: Double, angle: Double, peak: Double, longest: Double = longestSwing) -> HeadTrajectory.Swing {
        let duration = min(max(Double.pi * abs(angle) / (2 * max(peak, 1)), 0.08), longest)
        return HeadTrajectory.Swing(start: start, duration: duration, delta: angle * deg)
    }

    /// The same swing scaled onto another axis (cross-talk).
    static func crossTalk(_ s: HeadTrajectory.Swing, _ ratio: Double) -> HeadTrajectory.Swing {
        HeadTrajectory.Swing(start: s.start, duration: s.duration, delta: s.delta * ratio)
    }

    /// Adds a gesture starting at `t0`; returns its main-axis swings in order.
    static func gesture(_ kind: CohortKind, from t0: Double, into m: inout HeadTrajectory,
                        random r: inout SeededRandom) -> [HeadTrajectory.Swing] {
        var swings: [HeadTrajectory.Swing] = []
        var t = t0
        func add(_ angle: Double, peak: Double, pauseAfter: Double) {
            let s = swing(at: t, angle: angle, peak: peak)
            swings.append(s)
            t = s.end + pauseAfter
        }
        switch kind {
        case .singleNod:
            // One down-up. Half the wearers return gently (30–45 °/s), the rest at 0.6–1.0 of the way down.
            let gentle = r.uniform() < 0.5
            let returnPeak0 = r.range(30, 45)
            let downPeak = r.range(40, 150)
            let returnPeak = gentle ? returnPeak0 : max(30, downPeak * r.range(0.6, 1.0))
            // The return must fit a 0.62 s swing at its peak rate, which bounds the angle.
            let angle = min(r.range(6, 20), longestSwing * 2 * returnPeak / Double.pi)
            add(angle, peak: downPeak, pauseAfter: r.range(0, 0.08))
            add(-angle, peak: returnPeak, pauseAfter: 0)
        case .nods:
            // 2–4 cycles at 0.8–3 Hz, smaller each cycle and smallest at the end (Mori et al. 2025).
            let cycles = r.integer(2, 4)
            let frequency = r.range(0.8, 3)
            let first = r.range(6, 20)
            let sense = r.uniform() < 0.9 ? 1.0 : -1.0           // a few nod up first
            for k in 0..<cycles {
                var angle = first * (1 - 0.12 * Double(k))
                if k == cycles - 1 { angle *= 0.75 }
                let half = 1 / (2 * frequency)
                let peak = max(30, Double.pi * angle / (2 * half))
                add(sense * angle, peak: peak, pauseAfter: r.range(0, 0.05))
                // Between the nods of a long "yes" people often pause briefly, 0.1–0.6 s, at the top. The
                // return is 0.7–1.0 of the way down's speed, but no swing of the model is under 30 °/s.
                add(-sense * angle, peak: max(30, peak * r.range(0.7, 1.0)), pauseAfter: r.uniform() < 0.5 ? r.range(0.1, 0.6) : 0)
            }
        case .singleShake:
            // One left-right: out to one side, back past the middle by 0–60 %, maybe a gentle settle back.
            let side = r.sign()
            let angle = r.range(8, 28)
            let past = r.range(0, 0.6)
            let outPeak = r.range(40, 250)
            let backPeak = max(30, outPeak * r.range(0.6, 1.1))
            add(side * angle, peak: outPeak, pauseAfter: r.range(0, 0.08))
            add(-side * angle * (1 + past), peak: backPeak, pauseAfter: r.range(0, 0.08))
            if past > 0.15 { add(side * angle * past, peak: r.range(30, max(31, backPeak)), pauseAfter: 0) }
        case .shakes:
            // 3–6 swings about the middle at 1.2–4.7 Hz, ±8–30° (Funk et al. 2015), peaks ≤ 400 °/s.
            let count = r.integer(3, 6)
            let frequency = r.range(1.2, 4.7)
            let angle = r.range(8, 30)
            let side = r.sign()
            for k in 0..<count {
                let width = (k == 0 || k == count - 1) ? angle : 2 * angle
                let sense = (k % 2 == 0 ? side : -side)
                let peak = min(max(30, Double.pi * width * frequency), 400)
                add(sense * width, peak: peak, pauseAfter: r.range(0, 0.04))
            }
        default:
            return []
        }
        // Cross-talk of a real head: a nod carries some roll and yaw, a shake some pitch and roll. The neck
        // turns the head about its own axes, whatever the posture (`HeadTrajectory.neck`).
        let crossA = r.range(-0.15, 0.15), crossB = r.range(-0.1, 0.1)
        for s in swings {
            if kind.gestureLabel == "nod" {
                m.neck.pitch.swings.append(s)
                m.neck.roll.swings.append(crossTalk(s, crossA)); m.neck.yaw.swings.append(crossTalk(s, crossB))
            } else {
                m.neck.yaw.swings.append(s)
                m.neck.pitch.swings.append(crossTalk(s, crossA)); m.neck.roll.swings.append(crossTalk(s, crossB))
            }
        }
        return swings
    }

    /// Fills [t0, end) with a distractor movement.
    static func distractor(_ kind: CohortKind, from t0: Double, until end: Double, into m: inout HeadTrajectory,
                           random r: inout SeededRandom) {
        var t = t0
        /// A movement out and back on up to three axes: `angles` (°) out at `peak` (°/s) on the main one,
        /// held, back at `returnRatio` of the speed.
        func outAndBack(main: WritableKeyPath<HeadTrajectory, HeadTrajectory.Axis>, angle: Double, peak: Double,
                        hold: Double, returnRatio: Double, cross: [(WritableKeyPath<HeadTrajectory, HeadTrajectory.Axis>, Double)]) {
            let out = swing(at: t, angle: angle, peak: peak, longest: 3)
            let back = swing(at: out.end + hold, angle: -angle, peak: peak * returnRatio, longest: 3)
            m[keyPath: main].swings += [out, back]
            for (axis, ratio) in cross { m[keyPath: axis].swings += [crossTalk(out, ratio), crossTalk(back, ratio)] }
            t = back.end
        }
        /// A boxer bouncing on the feet from t0: a little pitch rocking and the head's vertical bob at 1.5–2.5 Hz.
        func bounceOnTheFeet(random r: inout SeededRandom) {
            m.pitch.oscillations.append(.init(amplitude: r.range(0.5, 1.5) * deg, frequency: r.range(1.5, 2.5), phase: 0,
                                              onset: t0, rampUp: 1))
            m.bobAcceleration = r.range(2, 5)
            m.bobFrequency = r.range(1.5, 2.5)
            m.bobOnset = t0
        }

        /// A figure drawn between its measured 10th and 90th percentiles, linearly between the five given
        /// (p10, p25, p50, p75, p90), so that a skewed measurement keeps its shape.
        func measured(_ p: (Double, Double, Double, Double, Double), _ r: inout SeededRandom) -> Double {
            let u = r.range(0.1, 0.9)
            let knots: [(Double, Double)] = [(0.1, p.0), (0.25, p.1), (0.5, p.2), (0.75, p.3), (0.9, p.4)]
            for (a, b) in zip(knots, knots.dropFirst()) where u <= b.0 {
                return a.1 + (b.1 - a.1) * (u - a.0) / (b.0 - a.0)
            }
            return p.4
        }

        /// A glance to `side` and back from `t`: out by `angle` (°) at `peak` (°/s), a hold of `hold` s during
        /// which the head drifts on the same way at up to `drift` °/s (a slow swing from the out swing's fastest
        /// moment that ends 0.6–1.2 of the hold after it: the way back may begin while the head still drifts),
        /// back to where it started at 0.8–1.2 of the out speed. Returns when the head is back.
        func glanceOut(side: Double, angle: Double, peak: Double, hold: Double, drift: Double,
                       random r: inout SeededRandom) -> Double {
            let out = swing(at: t, angle: side * angle, peak: peak, longest: 3)
            var driftAngle = 0.0
            var ends = out.end + hold
            if drift > 0 {
                let duration = out.end - out.peakTime + hold * r.range(0.6, 1.2)
                driftAngle = side * drift * 2 * duration / Double.pi     // a swing peaking at `drift`
                m.yaw.swings.append(HeadTrajectory.Swing(start: out.peakTime, duration: duration, delta: driftAngle * deg))
                ends = max(ends, out.peakTime + duration)
            }
            let back = swing(at: out.end + hold, angle: -(side * angle + driftAngle), peak: peak * r.range(0.8, 1.2), longest: 3)
            m.yaw.swings += [out, back]
            let cross = r.range(-0.3, 0.3)
            m.pitch.swings += [crossTalk(out, cross), crossTalk(back, cross)]
            return max(ends, back.end)
        }
        /// Gait from standing: pitch at the step rate, roll and yaw at the stride rate, vertical bob at the step
        /// rate, all reaching full size together over the first 2–4 steps. `measuredPitch`: the pitch rocking
        /// the recordings show (below) instead of the larger figures.
        func gait(running: Bool, measuredPitch: Bool = false, random r: inout SeededRandom) {
            let step = running ? r.range(2.5, 3.2) : r.range(1.6, 2.2)
            let pitch = measuredPitch ? (running ? r.range(0.8, 2.3) : r.range(0.5, 1.3))
                                      : running ? r.range(3, 6) : r.range(1.5, 3)
            // Roll and yaw sway at the stride rate (degrees each way), measured: `scripts/gait-sway.py` on the
            // ClassyGlass walking and running recordings with a known mount (14 and 6 people), p10–p90:
            // walking roll 1.8–4.0°, yaw 2.8–6.1°; running roll 1.8–4.5°, yaw 4.3–9.0°. Their pitch rocking at the
            // step rate measures 0.5–1.3° walking and 0.8–2.3° running; the larger figures drawn above (the
            // issue's gait figures) stay, as the harder case for the nod rules.
            let rollSway = running ? (1.8, 4.5) : (1.8, 4.0)
            let yawSway = running ? (4.3, 9.0) : (2.8, 6.1)
            let ramp = r.range(2, 4) / step
            m.pitch.oscillations += [.init(amplitude: pitch * deg, frequency: step, phase: r.range(0, 6.28), onset: t0, rampUp: ramp),
                                     .init(amplitude: 0.3 * pitch * deg, frequency: 2 * step, phase: r.range(0, 6.28),
                                           onset: t0, rampUp: ramp)]
            m.roll.oscillations.append(.init(amplitude: r.range(rollSway.0, rollSway.1) * deg, frequency: step / 2,
                                             phase: r.range(0, 6.28), onset: t0, rampUp: ramp))
            m.yaw.oscillations.append(.init(amplitude: r.range(yawSway.0, yawSway.1) * deg, frequency: step / 2,
                                            phase: r.range(0, 6.28), onset: t0, rampUp: ramp))
            // Heel strikes: the head's vertical acceleration swings ±2–3 m/s² walking, ±5–10 m/s² running, at
            // the step rate, growing with the steps like the pitch rocking.
            m.bobAcceleration = running ? r.range(5, 10) : r.range(2, 3)
            m.bobFrequency = step
            m.bobOnset = t0
            m.bobRampUp = ramp
        }
        switch kind {
        case .glance:
            // Out 20–80° at 100–300 °/s, hold 0.35–2 s while the eyes fixate, back.
            while t < end - 5 {
                outAndBack(main: \.yaw, angle: r.sign() * r.range(20, 80), peak: r.range(100, 300), hold: r.range(0.35, 2),
                           returnRatio: r.range(0.6, 1.0), cross: [(\.pitch, r.range(-0.3, 0.3))])
                t += r.range(1, 4)
            }
        case .lookAround:
            // Turns of 20–90° at 20–60 °/s with some pitch, one after another.
            var heading = 0.0
            while t < end - 4 {
                let angle = (heading > 60 ? -1 : heading < -60 ? 1 : r.sign()) * r.range(20, 90)
                heading += angle
                let s = swing(at: t, angle: angle, peak: r.range(20, 60), longest: 5)
                m.yaw.swings.append(s)
                m.pitch.swings.append(crossTalk(s, r.range(-0.3, 0.3)))
                t = s.end + r.range(0, 1)
            }
        case .tilt:
            // Roll 10–35° toward a shoulder at 30–150 °/s, held 0–1.5 s, back; pitch cross-talk ≤ 30 %, yaw ≤ 15 %.
            while t < end - 5 {
                outAndBack(main: \.roll, angle: r.sign() * r.range(10, 35), peak: r.range(30, 150), hold: r.range(0, 1.5),
                           returnRatio: r.range(0.6, 1.2),
                           cross: [(\.pitch, r.range(-0.3, 0.3)), (\.yaw, r.range(-0.15, 0.15))])
                t += r.range(1, 3)
            }
        case .talking:
            // Small head movements with speech: three components per axis, 1–4 Hz, each ≤ 6.5 °/s.
            for axis in [\HeadTrajectory.pitch, \HeadTrajectory.yaw, \HeadTrajectory.roll] {
                for _ in 0..<3 {
                    let f = r.range(1, 4)
                    let amplitude = min(r.range(0.3, 1.5), 6.5 / (2 * Double.pi * f))
                    m[keyPath: axis].oscillations.append(.init(amplitude: amplitude * deg, frequency: f,
                                                                phase: r.range(0, 2 * Double.pi), onset: t0, rampUp: 0.5))
                }
            }
        case .chewing:
            m.pitch.oscillations.append(.init(amplitude: r.range(0.2, 0.5) * deg, frequency: r.range(1, 2), phase: 0,
                                              onset: t0, rampUp: 0.5))
            m.roll.oscillations.append(.init(amplitude: r.range(0.1, 0.3) * deg, frequency: r.range(1, 2), phase: 1,
                                             onset: t0, rampUp: 0.5))
        case .walking, .running:
            gait(running: kind == .running, random: &r)
        case .walkingGlances:
            // Walking indoors and looking about, drawn from the ClassyGlass walking recordings with a known
            // mount (28.7 min), not from the gesture model, and measured again on the cohort with the same
            // scripts (`eval gestures --export`; docs/gestures.md). Each figure is drawn between its measured
            // p10 and p90 through the p25, median and p75, since they are skewed (most looks are small, a few
            // large). The looks (`scripts/out-and-backs.py`, both directions together): about pitch, down at
            // the path and back either way first, a median of 7.5° at 42 °/s; about yaw, only those wider than
            // a stride's sway makes (`--min-angle 12.2`, twice the sway's p90, so as not to count the gait
            // twice), a median of 16° at 49 °/s. Looks that share no swing: 6.9 a minute about pitch, 5.3
            // about yaw, in bursts (from one's end to the next's start p10 0.17 s, median 3–4 s, p90 14–19 s),
            // drawn as a Poisson stream at 12.2 a minute. Cross-talk as in a glance. The gait's pitch rocking
            // is the measured one (0.5–1.3°, `scripts/gait-sway.py`), like the rest of this row.
            gait(running: false, measuredPitch: true, random: &r)
            // Walking, people look ahead, within 10° of level here instead of the other rows' 20° up to 40°
            // down: the recordings' mounts take the head's up from the mean gravity while walking (data
            // README), so their walkers are level by that definition, and none reads a phone.
            m.pitch.offset = r.range(-10, 10) * deg
            // The route's turns: these people walked a corridor and back, and turned 45° or more 8.6 times a
            // minute (`scripts/walking-turns.py`: a median of 125° at 163 °/s; p10–p90 57–165°, 101–250 °/s).
            // They are what breaks real sway into fewer, longer swings than a steady sinusoid makes.
            var turnAt = t0 + r.range(2, 7)
            while turnAt < end - 2 {
                let turn = swing(at: turnAt, angle: r.sign() * measured((57, 79, 125, 148, 165), &r),
                                 peak: measured((101, 124, 163, 199, 250), &r), longest: 5)
                m.yaw.swings.append(turn)
                turnAt = turn.end + -5 * log(1 - r.uniform())   // 7 s from one to the next on average
            }
            t += r.range(2, 4)   // the first steps
            while t < end - 3 {
                if r.uniform() < 6.9 / (6.9 + 5.3) {
                    outAndBack(main: \.pitch, angle: r.sign() * measured((4.18, 5.19, 7.51, 12.38, 22.34), &r),
                               peak: measured((28.6, 33.4, 42.1, 63.7, 88.5), &r), hold: measured((0.04, 0.06, 0.11, 0.31, 0.56), &r),
                               returnRatio: measured((0.60, 0.79, 0.98, 1.26, 1.45), &r),
                               cross: [(\.yaw, r.range(-0.3, 0.3)), (\.roll, r.range(-0.2, 0.2))])
                } else {
                    outAndBack(main: \.yaw, angle: r.sign() * measured((13.0, 14.1, 16.3, 26.8, 47.4), &r),
                               peak: measured((32.2, 38.5, 48.7, 75.4, 188.5), &r), hold: measured((0.08, 0.13, 0.20, 0.30, 0.48), &r),
                               returnRatio: measured((0.58, 0.73, 0.96, 1.25, 1.59), &r),
                               cross: [(\.pitch, r.range(-0.3, 0.3)), (\.roll, r.range(-0.2, 0.2))])
                }
                // 12.2 looks a minute of about 1 s each: 3.9 s on average from one's end to the next's start.
                t += -3.9 * log(1 - r.uniform())
            }
        case .boxing:
            // Bouncing on the feet, and quick dodges returned after 0–0.3 s: slips (roll with yaw and pitch
            // cross-talk), pull-backs (nose up), weaves (down with roll). Each dodge is made with the trunk, so
            // it also carries the head 10–25 cm (slip: sideways; pull-back: back; weave: down and sideways) over
            // 0.15–0.35 s each way, at least as long as the head's own turn takes.
            bounceOnTheFeet(random: &r)
            let facing = m.yaw.offset
            let forward = Vector3(cos(facing), sin(facing), 0), left = Vector3(-sin(facing), cos(facing), 0)
            while t < end - 3 {
                let hold = r.range(0, 0.3), back = r.range(0.5, 1.0)
                let start = t
                let kind = r.integer(0, 2)
                let side = r.sign()
                switch kind {
                case 0:
                    outAndBack(main: \.roll, angle: side * r.range(15, 35), peak: r.range(150, 400), hold: hold,
                               returnRatio: back, cross: [(\.yaw, r.range(-0.4, 0.4)), (\.pitch, r.range(-0.3, 0.3))])
                case 1:
                    outAndBack(main: \.pitch, angle: -r.range(10, 25), peak: r.range(150, 300), hold: hold,
                               returnRatio: back, cross: [(\.roll, r.range(-0.3, 0.3)), (\.yaw, r.range(-0.3, 0.3))])
                default:
                    outAndBack(main: \.pitch, angle: r.range(10, 20), peak: r.range(150, 300), hold: hold,
                               returnRatio: back, cross: [(\.roll, side * r.range(0.6, 1.5)), (\.yaw, r.range(-0.2, 0.2))])
                }
                let turn = t - start - hold
                let outDuration = max(r.range(0.15, 0.35), turn / (1 + 1 / back))
                let distance = r.range(0.10, 0.25)
                let direction = kind == 0 ? left * (-side) : kind == 1 ? forward * -1 : (Vector3(0, 0, -1) + left * (-side * 0.5)).normalized
                m.carriages.append(.init(start: start, outDuration: outDuration, hold: hold,
                                         backDuration: outDuration / back, offset: direction * distance))
                t += r.range(0.5, 2)
            }
        case .driftingGlance:
            // Out 20–80° at 90–300 °/s; then, while the eyes hold the target, the head keeps turning the same
            // way at 5–30 °/s for 0.3–1 s (eye-head coordination: the head's movement outlasts the gaze shift
            // and the eyes counter-roll); then back as fast as out (0.8–1.2 of its speed).
            while t < end - 5 {
                let side = r.sign()
                let g = glanceOut(side: side, angle: r.range(20, 80), peak: r.range(90, 300), hold: r.range(0.3, 1.0),
                                  drift: r.range(5, 30), random: &r)
                t = g + r.range(1, 4)
            }
        case .lookBack:
            // Looking back over one shoulder, once or twice in a row to the same side: out 50–90° at
            // 100–300 °/s, a look of 0.2–1 s (half of them drifting on at 5–30 °/s), back as fast as out; a
            // second look follows 0–0.5 s after the head is back.
            while t < end - 8 {
                let side = r.sign()
                for _ in 0..<r.integer(1, 2) {
                    let drift = r.uniform() < 0.5 ? r.range(5, 30) : 0
                    t = glanceOut(side: side, angle: r.range(50, 90), peak: r.range(100, 300), hold: r.range(0.2, 1.0),
                                  drift: drift, random: &r) + r.range(0, 0.5)
                }
                t += r.range(1, 4)
            }
        case .turnToSomeone:
            // Turning to a person beside or across: 30–90° at 60–200 °/s, looking at them for 1–5 s while the
            // head moves with the conversation (talking's small movements throughout) and drifts by up to 20 %
            // of the turn, then back at 0.6–1.2 of the speed.
            for axis in [\HeadTrajectory.pitch, \HeadTrajectory.yaw, \HeadTrajectory.roll] {
                let f = r.range(1, 4)
                m[keyPath: axis].oscillations.append(.init(amplitude: min(r.range(0.3, 1.5), 6.5 / (2 * Double.pi * f)) * deg,
                                                            frequency: f, phase: r.range(0, 2 * Double.pi), onset: t0, rampUp: 0.5))
            }
            while t < end - 8 {
                let side = r.sign()
                let angle = side * r.range(30, 90), peak = r.range(60, 200)
                let out = swing(at: t, angle: angle, peak: peak, longest: 3)
                let hold = r.range(1, 5)
                let drift = HeadTrajectory.Swing(start: out.end, duration: hold, delta: angle * r.range(-0.2, 0.2) * deg)
                let back = swing(at: out.end + hold, angle: -(angle + drift.delta / deg), peak: peak * r.range(0.6, 1.2), longest: 3)
                m.yaw.swings += [out, drift, back]
                let cross = r.range(-0.2, 0.2)
                m.pitch.swings += [crossTalk(out, cross), crossTalk(back, cross)]
                t = back.end + r.range(1, 4)
            }
        case .slips:
            // The defences the held-out boxing set is made of, with the head turned by the trunk: slips (the
            // trunk turns and leans so the head leaves the punch's line sideways by 10–25 cm, yawing 10–40°
            // with 10–50 % as much roll) and rolls (under a hook: down 10–20 cm and across 15–30 cm, yawing
            // 15–40° with 20–60 % as much nose-down pitch), each returned after 0–0.3 s at 0.5–1.0 of the
            // speed, on feet that bounce. The trunk carries and turns the head in one movement: each leg takes
            // 0.15–0.35 s (the dodge must beat a punch, delivered in a few tenths of a second: Piorkowski,
            // Lees & Barton 2011), and no less than the head's turn needs, since active head rotation
            // accelerates by at most 5 000 °/s² (87 rad/s²; active head rotation at 2–5 Hz, Equilibrium Res.
            // 46:155). So the head turns as fast as in a shake (up to ~320 °/s) but accelerates by 4–55 m/s²,
            // several times what the turn explains at the ear.
            bounceOnTheFeet(random: &r)
            let facing = m.yaw.offset
            let left = Vector3(-sin(facing), cos(facing), 0)
            let fastestTurn = 87.0
            while t < end - 3 {
                let hold = r.range(0, 0.3), back = r.range(0.5, 1.0)
                let side = r.sign()
                let isRoll = r.uniform() < 0.4
                let yawAngle = r.sign() * (isRoll ? r.range(15, 40) : r.range(10, 40))
                // A bell-shaped turn by Y over D peaks at π²Y/(2D²) of angular acceleration.
                let leg = max(r.range(0.15, 0.35), Double.pi * (abs(yawAngle) * deg / (2 * fastestTurn)).squareRoot())
                let out = HeadTrajectory.Swing(start: t, duration: leg, delta: yawAngle * deg)
                let returned = HeadTrajectory.Swing(start: out.end + hold, duration: leg / back, delta: -yawAngle * deg)
                m.yaw.swings += [out, returned]
                let direction: Vector3
                let distance: Double
                if isRoll {
                    let down = r.range(0.10, 0.20), across = r.range(0.15, 0.30)
                    direction = (Vector3(0, 0, -down) + left * (side * across)).normalized
                    distance = (down * down + across * across).squareRoot()
                    let pitch = abs(yawAngle) * r.range(0.2, 0.6), roll = yawAngle * r.range(-0.3, 0.3)
                    m.pitch.swings += [crossTalk(out, pitch / yawAngle), crossTalk(returned, pitch / yawAngle)]
                    m.roll.swings += [crossTalk(out, roll / yawAngle), crossTalk(returned, roll / yawAngle)]
                } else {
                    direction = left * side
                    distance = r.range(0.10, 0.25)
                    let roll = -side * abs(yawAngle) * r.range(0.1, 0.5), pitch = yawAngle * r.range(-0.2, 0.2)
                    m.roll.swings += [crossTalk(out, roll / yawAngle), crossTalk(returned, roll / yawAngle)]
                    m.pitch.swings += [crossTalk(out, pitch / yawAngle), crossTalk(returned, pitch / yawAngle)]
                }
                m.carriages.append(.init(start: t, outDuration: leg, hold: hold, backDuration: leg / back,
                                         offset: direction * distance))
                t = returned.end + r.range(0.5, 2)
            }
        case .keyGlance:
            // Typing: the eyes go to the keys (or to papers beside them) and back, and the head goes a little
            // way with them. Measured, not drawn from the gesture model: every out-and-back of 3° or more
            // peaking at 26 °/s or more about one head axis in the ClassyGlass typing recordings with a known
            // mount (10.6 min, `scripts/out-and-backs.py`), about p10–p90 of both directions together: about
            // pitch (1.2 a minute, either way first) 4–16° at 28–78 °/s, held 0.07–0.5 s, back at 0.5–1.2 of
            // the speed; about yaw (0.85 a minute) 3.5–34° at 31–95 °/s, held 0.03–0.5 s, back at 0.45–1.2.
            // Cross-talk as in a glance.
            while t < end - 3 {
                if r.uniform() < 0.6 {
                    outAndBack(main: \.pitch, angle: r.sign() * r.range(4, 16), peak: r.range(28, 78), hold: r.range(0.07, 0.5),
                               returnRatio: r.range(0.5, 1.2), cross: [(\.yaw, r.range(-0.3, 0.3)), (\.roll, r.range(-0.2, 0.2))])
                } else {
                    outAndBack(main: \.yaw, angle: r.sign() * r.range(3.5, 34), peak: r.range(31, 95), hold: r.range(0.03, 0.5),
                               returnRatio: r.range(0.45, 1.2), cross: [(\.pitch, r.range(-0.3, 0.3)), (\.roll, r.range(-0.2, 0.2))])
                }
                // 2.1 a minute together: 28 s apart on average.
                t += r.range(8, 48)
            }
        case .drawing:
            // Drawing shapes with the head, as the held-out drawing set is described (glasses, 55 Hz): tilts,
            // circles, squares and triangles; a stroke takes 0.46–0.64 s and a corner pauses 0.08–0.24 s. The
            // size is not given: strokes of 10–30°, as on a screen an arm's length away. Each shape is drawn
            // one to three times over, then 2–5 s of rest.
            while t < end - 12 {
                let shape = r.integer(0, 3)
                let size = r.range(10, 30)
                let repeats = r.integer(1, 3)
                func stroke(pitch: Double, yaw: Double) {
                    let d = r.range(0.46, 0.64)
                    if pitch != 0 { m.pitch.swings.append(.init(start: t, duration: d, delta: pitch * deg)) }
                    if yaw != 0 { m.yaw.swings.append(.init(start: t, duration: d, delta: yaw * deg)) }
                    t += d + r.range(0.08, 0.24)
                }
                switch shape {
                case 0:
                    // Tilt toward a shoulder and back, as the tilt row but at a stroke's pace.
                    for _ in 0..<repeats {
                        let side = r.sign()
                        for sense in [side, -side] {
                            let s = HeadTrajectory.Swing(start: t, duration: r.range(0.46, 0.64), delta: sense * size * deg)
                            m.roll.swings.append(s)
                            t = s.end + r.range(0.08, 0.24)
                        }
                    }
                case 1:
                    // A circle: pitch and yaw each a half-turn per half period, a quarter period apart; the
                    // period is four strokes.
                    let period = 4 * r.range(0.46, 0.64), radius = size / 2
                    let sense = r.sign()
                    m.pitch.swings.append(.init(start: t, duration: period / 4, delta: radius * deg))
                    for k in 0..<(2 * repeats) {
                        let s = k % 2 == 0 ? -1.0 : 1.0
                        m.yaw.swings.append(.init(start: t + Double(k) * period / 2, duration: period / 2, delta: sense * s * size * deg))
                        m.pitch.swings.append(.init(start: t + period / 4 + Double(k) * period / 2, duration: period / 2,
                                                    delta: -s * size * deg))
                    }
                    t += period / 4 + Double(2 * repeats) * period / 2
                    m.pitch.swings.append(.init(start: t, duration: period / 4, delta: radius * deg))
                    t += period / 4 + r.range(0.08, 0.24)
                case 2:
                    // A square: up, across, down, back.
                    let sense = r.sign()
                    for _ in 0..<repeats {
                        stroke(pitch: -size, yaw: 0); stroke(pitch: 0, yaw: sense * size)
                        stroke(pitch: size, yaw: 0); stroke(pitch: 0, yaw: -sense * size)
                    }
                default:
                    // A triangle: three strokes 120° apart (up-right, down-right... as drawn on a screen).
                    let sense = r.sign()
                    for _ in 0..<repeats {
                        stroke(pitch: -size * 0.87, yaw: sense * size * 0.5)
                        stroke(pitch: size * 0.87, yaw: sense * size * 0.5)
                        stroke(pitch: 0, yaw: -sense * size)
                    }
                }
                t += r.range(2, 5)
            }
        default:
            break
        }
    }
}
