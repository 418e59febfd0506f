import LibC
import Geometry
import Simulation

/// The guided step of `calibrate --mount` performed by a synthetic wearer: looking straight ahead and still,
/// then nodding a few times chin-down first, on the cohort's devices (rate, low-pass, noise, bias, board mount),
/// worn `askew` (rad) off the board's nominal mount about a random axis.
extension GestureCohort {
    /// `nods` down-up cycles from the gesture model (6–20°, 0.8–3 Hz, smaller each cycle, the return 0.7–1.0 of
    /// the way down's speed, cross-talk roll ±15 % and yaw ±10 %, see below) after a still lead of 2.5–4 s (the step's 2 s
    /// and a reaction to its prompt) in a natural head posture: pitch ±5° (the spread of natural head position
    /// looking ahead: 2–3° between sittings) and roll ±5° (the cohort's habitual tilt). The truth is the trial's
    /// `mount` with the misalignment applied: `GuidedMountTrial.truth`.
    public func guidedMountTrial(wearer: Int, askew: Double, nods: Int) -> GuidedMountTrial {
        var r = SeededRandom(seed: seed &* 0x2545_F491 &+ UInt64(wearer) &* 7_727 &+ UInt64(nods))
        var motion = HeadTrajectory()
        motion.pitch.offset = r.range(-5, 5) * CohortMotions.deg
        motion.roll.offset = r.range(-5, 5) * CohortMotions.deg
        motion.yaw.offset = r.range(-180, 180) * CohortMotions.deg
        var t = r.range(2.5, 4)
        let frequency = r.range(0.8, 3), first = r.range(6, 20)
        // Cross-talk within the cohort's bounds (roll ±15 %, yaw ±10 % of the pitch), but mostly nod by nod: the
        // atlanto-occipital joints flex about the line through both condyles, which by the joint's symmetry is
        // the interaural direction, so a wearer's own, lasting part is kept to ±5 % (a habit) and the rest varies.
        let crossRoll = r.range(-0.05, 0.05), crossYaw = r.range(-0.05, 0.05)
        for k in 0..<nods {
            let nodRoll = crossRoll + r.range(-0.1, 0.1), nodYaw = crossYaw + r.range(-0.05, 0.05)
            let angle = first * (1 - 0.12 * Double(k)) * (k == nods - 1 ? 0.75 : 1)
            let half = 1 / (2 * frequency)
            let peak = max(30, Double.pi * angle / (2 * half))
            let down = CohortMotions.swing(at: t, angle: angle, peak: peak)
            let up = CohortMotions.swing(at: down.end + r.range(0, 0.05), angle: -angle, peak: max(30, peak * r.range(0.7, 1.0)))
            for s in [down, up] {
                motion.neck.pitch.swings.append(s)
                motion.neck.roll.swings.append(CohortMotions.crossTalk(s, nodRoll))
                motion.neck.yaw.swings.append(CohortMotions.crossTalk(s, nodYaw))
            }
            t = up.end + (r.uniform() < 0.5 ? r.range(0.1, 0.6) : 0)
        }
        var d = device(wearer: wearer)
        let axis = r.gaussianVector()
        d.misalignment = Quaternion(axis: axis.length > 1e-9 ? axis.normalized : Vector3(1, 0, 0), angle: askew)
        let trial = sample(motion, kind: .nods, wearer: wearer, duration: t + 1.5, gesture: nil, device: d, random: &r)
        return GuidedMountTrial(trial: trial, nominal: d.mount, misalignment: d.misalignment,
                                posture: (motion.pitch.offset, motion.roll.offset), crossTalk: (crossRoll, crossYaw))
    }
}

public struct GuidedMountTrial: Sendable {
    public var trial: CohortTrial
    /// The board's mount as designed (one of the cohort's five).
    public var nominal: Mount
    /// How the board sits off it (head frame).
    public var misalignment: Quaternion
    /// The head's pitch and roll while looking ahead (rad), and the roll and yaw cross-talk of its nods (a
    /// fraction of the pitch, the wearer's lasting part): what the learner cannot tell from how the board sits.
    public var posture: (pitch: Double, roll: Double)
    public var crossTalk: (roll: Double, yaw: Double)

    /// The mount that undoes how the board really sits: the sensor reads `nominal.unapply(misalignment.rotate(h))`
    /// for a head-frame vector h, so the head's axes in sensor coordinates are those of the misaligned frame.
    public var truth: Mount {
        func row(_ h: Vector3) -> Vector3 { nominal.unapply(misalignment.rotate(h)) }
        return Mount(forward: row(Vector3(1, 0, 0)), left: row(Vector3(0, 1, 0)), up: row(Vector3(0, 0, 1)))
    }
}
