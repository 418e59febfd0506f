import Geometry
import MountLearning
import Simulation
import Cohorts
import Testing

/// The mount learner on synthetic wearers of the gesture cohort (their devices: 25 Hz–1 kHz, sensor low-pass,
/// noise, residual bias, the five board mounts), doing the guided step: still, looking ahead, then nodding.
/// The truth is how the simulation put the board on the head (nominal mount × misalignment), which the learner
/// never sees.
@Suite struct MountLearnerCohortTests {
    static let cohort = GestureCohort(wearers: 200, seed: 11)
    static let degree = Units.radiansPerDegree

    static func learn(_ trial: CohortTrial) -> Result<MountLearner.Learned, MountLearner.Failure> {
        var learner = MountLearner()
        for i in trial.t.indices { learner.add(t: trial.t[i], gyro: trial.gyro[i], accel: trial.accel[i]) }
        return learner.result()
    }

    /// Wearers grouped by their board's nominal mount, `perMount` of each of the cohort's five.
    static func wearersByMount(perMount: Int) -> [String: [Int]] {
        var groups: [String: [Int]] = [:]
        var w = 0
        while groups.count < 5 || groups.values.contains(where: { $0.count < perMount }) {
            let m = cohort.device(wearer: w).mount.description
            if groups[m, default: []].count < perMount { groups[m, default: []].append(w) }
            w += 1
            precondition(w < 10_000, "the cohort draws five mounts")
        }
        return groups
    }

    @Test func everyCohortMountWorn20DegreesAskewIsLearnedWithin10Degrees() throws {
        let groups = MountLearnerCohortTests.wearersByMount(perMount: 8)
        #expect(groups.count == 5)
        var worst = 0.0
        for (name, wearers) in groups.sorted(by: { $0.key < $1.key }) {
            for w in wearers {
                let g = MountLearnerCohortTests.cohort.guidedMountTrial(wearer: w, askew: 20 * MountLearnerCohortTests.degree, nods: 4)
                #expect(g.nominal.description == name)
                #expect(abs(g.nominal.angle(to: g.truth) - 20 * MountLearnerCohortTests.degree) < 1e-9)
                guard case let .success(l) = MountLearnerCohortTests.learn(g.trial) else {
                    Issue.record("wearer \(w) (\(name), \(Int(g.trial.rateHz)) Hz): \(MountLearnerCohortTests.learn(g.trial))")
                    continue
                }
                let error = l.measured.angle(to: g.truth) / MountLearnerCohortTests.degree
                worst = max(worst, error)
                #expect(error <= 10, "wearer \(w) (\(name), \(Int(g.trial.rateHz)) Hz): \(error)° from the truth")
                #expect(l.nods >= 3)
                // What is kept: the axis form when the measured axes lie within 25° of it (here: the board's own).
                if l.measured.angle(to: g.nominal) <= 25 * MountLearnerCohortTests.degree {
                    #expect(l.mount == g.nominal, "wearer \(w)")
                } else {
                    #expect(l.mount == l.measured, "wearer \(w)")
                }
            }
        }
        print("mount learner, 5 mounts × 8 wearers worn 20° askew: worst error \(worst)° from the truth")
    }

    @Test func withinTheCohortsOwnAskewTheBoardsAxisFormComesBack() throws {
        for (name, wearers) in MountLearnerCohortTests.wearersByMount(perMount: 4) {
            for w in wearers {
                let g = MountLearnerCohortTests.cohort.guidedMountTrial(wearer: w, askew: 10 * MountLearnerCohortTests.degree, nods: 3)
                guard case let .success(l) = MountLearnerCohortTests.learn(g.trial) else {
                    Issue.record("wearer \(w) (\(name)) learned nothing"); continue
                }
                #expect(l.mount == g.nominal, "wearer \(w): \(l.mount.argument), worn as \(name)")
                #expect(l.senseSource == .firstSwingFromRest)
            }
        }
    }

    @Test func neverFromFewerThanThreeNods() throws {
        for w in 0..<20 {
            for nods in 1...2 {
                let g = MountLearnerCohortTests.cohort.guidedMountTrial(wearer: w, askew: 5 * MountLearnerCohortTests.degree, nods: nods)
                let r = MountLearnerCohortTests.learn(g.trial)
                guard case let .failure(.tooFewNods(most, needed)) = r else {
                    Issue.record("wearer \(w), \(nods) nods: \(r)"); continue
                }
                #expect(needed == 3 && most <= nods, "wearer \(w): \(most) nods seen in \(nods)")
            }
            // The same wearer's three nods are enough: the refusal above is the count, not the wearer.
            let three = MountLearnerCohortTests.cohort.guidedMountTrial(wearer: w, askew: 5 * MountLearnerCohortTests.degree, nods: 3)
            if case let .failure(why) = MountLearnerCohortTests.learn(three.trial) { Issue.record("wearer \(w), 3 nods: \(why)") }
        }
    }

    /// The cohort's tilts (roll 10–35° toward either shoulder, held 0–1.5 s, back, the next 1–3 s later, for
    /// 40 s), shakes and looking around: every one turns the head about an axis, none is a rhythm of nods.
    @Test func neverFromTiltsShakesOrLookingAround() throws {
        for w in 0..<24 {
            for kind in [CohortKind.tilt, .shakes, .singleShake, .lookAround, .glance] {
                let trial = MountLearnerCohortTests.cohort.trial(wearer: w, kind: kind)
                if case let .success(l) = MountLearnerCohortTests.learn(trial) {
                    Issue.record("wearer \(w), \(kind.rawValue): learned \(l.mount.argument) from \(l.nods) 'nods'")
                }
            }
        }
    }

    /// The cohort's nod trials (2–4 cycles, a few nodding chin-up first): a mount only from three cycles or more.
    @Test func cohortNodsGiveAMountOnlyFromThreeCycles() throws {
        var learned = 0, refused = 0
        for w in 0..<60 {
            let trial = MountLearnerCohortTests.cohort.trial(wearer: w, kind: .nods)
            let cycles = (trial.gesture?.swings ?? 0) / 2
            switch MountLearnerCohortTests.learn(trial) {
            case let .success(l):
                learned += 1
                #expect(cycles >= 3, "wearer \(w): learned from \(cycles) cycles")
                #expect(l.nods <= cycles)
            case .failure:
                refused += 1
            }
        }
        #expect(learned > 0 && refused > 0)
        print("mount learner, 60 cohort nod trials: \(learned) learned (all from 3+ cycles), \(refused) refused")
    }
}
