import LibC
import Geometry

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
        // Cross-talk of a real head: a nod carries some roll and yaw, a shake some pitch and roll.
        let crossA = r.range(-0.15, 0.15), crossB = r.range(-0.1, 0.1)
        for s in swings {
            if kind.gestureLabel == "nod" {
                m.pitch.swings.append(s)
                m.roll.swings.append(crossTalk(s, crossA)); m.yaw.swings.append(crossTalk(s, crossB))
            } else {
                m.yaw.swings.append(s)
                m.pitch.swings.append(crossTalk(s, crossA)); m.roll.swings.append(crossTalk(s, crossB))
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
            // From standing: pitch at the step rate, roll and yaw at the stride rate, vertical bob at the step
            // rate, all reaching full size together over the first 2–4 steps.
            let running = kind == .running
            let step = running ? r.range(2.5, 3.2) : r.range(1.6, 2.2)
            let pitch = running ? r.range(3, 6) : r.range(1.5, 3)
            let sway = running ? (3.0, 6.0) : (2.0, 4.0)
            let ramp = r.range(2, 4) / step
            m.pitch.oscillations += [.init(amplitude: pitch * deg, frequency: step, phase: r.range(0, 6.28), onset: t0, rampUp: ramp),
                                     .init(amplitude: 0.3 * pitch * deg, frequency: 2 * step, phase: r.range(0, 6.28),
                                           onset: t0, rampUp: ramp)]
            m.roll.oscillations.append(.init(amplitude: r.range(sway.0, sway.1) * deg, frequency: step / 2,
                                             phase: r.range(0, 6.28), onset: t0, rampUp: ramp))
            m.yaw.oscillations.append(.init(amplitude: r.range(sway.0, sway.1 + 1) * deg, frequency: step / 2,
                                            phase: r.range(0, 6.28), onset: t0, rampUp: ramp))
            // Heel strikes: the head's vertical acceleration swings ±2–3 m/s² walking, ±5–10 m/s² running, at
            // the step rate, growing with the steps like the pitch rocking.
            m.bobAcceleration = running ? r.range(5, 10) : r.range(2, 3)
            m.bobFrequency = step
            m.bobOnset = t0
            m.bobRampUp = ramp
        case .boxing:
            // Bouncing on the feet, and quick dodges returned after 0–0.3 s: slips (roll with yaw and pitch
            // cross-talk), pull-backs (nose up), weaves (down with roll). Each dodge is made with the trunk, so
            // it also carries the head 10–25 cm (slip: sideways; pull-back: back; weave: down and sideways) over
            // 0.15–0.35 s each way, at least as long as the head's own turn takes.
            m.pitch.oscillations.append(.init(amplitude: r.range(0.5, 1.5) * deg, frequency: r.range(1.5, 2.5), phase: 0,
                                              onset: t0, rampUp: 1))
            m.bobAcceleration = r.range(2, 5)
            m.bobFrequency = r.range(1.5, 2.5)
            m.bobOnset = t0
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
        default:
            break
        }
    }
}
