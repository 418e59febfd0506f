import Geometry

/// How fast a directional flick must be. The classic recipe thresholds the change of pitch or yaw per display
/// frame at 60 Hz (0.02 / 0.04 / 0.08 rad per frame); the same head speeds as angular rates are 1.2 / 2.4 /
/// 4.8 rad/s, which mean the same thing at every sample rate.
public enum FlickPreset: String, Sendable, CaseIterable, Equatable {
    case sensitive, normal, firm

    /// Peak angular rate (rad/s) a flick must reach.
    public var rate: Double { classicThresholdPerFrame * 60 }

    /// The classic recipe's threshold: radians per frame at 60 Hz.
    public var classicThresholdPerFrame: Double {
        switch self {
        case .sensitive: return 0.02
        case .normal: return 0.04
        case .firm: return 0.08
        }
    }
}

/// How gentle a nod or shake may be. Only the speed every swing must reach changes; the shape rules that
/// reject glances, tilts, dodges and walking stay the same, so `sensitive` finds gentler gestures without
/// accepting other kinds of movement.
///
/// - `sensitive`: 20 °/s — for wearers who nod very gently (the slow end of the 30–45 °/s return swings
///   of natural single nods, after an earbud's sensor low-pass has shaved a few °/s off).
/// - `normal` (default): 26 °/s — just under the gentlest return swing of the gesture model (30 °/s), so
///   a natural single nod counts, and above the pitch rate of talking and chewing (model: ≤ 20 °/s).
/// - `firm`: 46 °/s — only deliberate gestures, for wearers who nod along to music or talk with their head.
public enum GesturePreset: String, Sendable, CaseIterable, Equatable {
    case sensitive, normal, firm

    /// Peak rate (rad/s) every swing of a nod or shake must reach.
    public var swingRate: Double {
        switch self {
        case .sensitive: return 20 * Units.radiansPerDegree
        case .normal: return HeadGestureFacts.swingRate
        case .firm: return 46 * Units.radiansPerDegree
        }
    }
}

extension GestureDetector {
    /// Every parameter of the detector, with the reason for its default. Rates in rad/s, times in s, so the
    /// same settings mean the same head motion at any sample rate (25 Hz to 1 kHz).
    ///
    /// ## The gesture model the thresholds come from
    /// (ranges the synthetic cohort `GestureCohort` draws from; sources in brackets)
    ///
    /// | movement | model range |
    /// |---|---|
    /// | nod | 1–4 cycles, first cycle down-up [Mori, Den & Jokinen 2025, PLOS ONE 20:e0323448: a nod is 1 or more up/down cycles, the last one smaller]; 6–20° each way; swing peak rates 30–150 °/s, the return swing of a gentle single nod 30–45 °/s (a held-out phone-API measurement of real nods: median 45 °/s); 0.8–3 Hz, listeners' quick nods up to 6 Hz; pauses of 0.1–0.6 s between the nods of a long "yes" [Hale, Ward et al., J. Nonverbal Behav. 2020, head motion in dyadic conversation: fast nodding by listeners at 2.6–6.5 Hz] |
    /// | shake | one left-right (two swings) to 6 swings; 8–30° each way [Funk et al., J. Appl. Biomech. 31:170: vigorous shaking, 20 subjects, 20–91° range of motion at 1.9–4.7 Hz]; swing peaks 30–250 °/s; no pause at the turning points (an oscillation) |
    /// | glance | out 20–80° at 100–300 °/s [gaze-shift head movements, Zangemeister & Stark 1982; Fuller 1992], a hold of 0.35–2 s while the eyes fixate, back |
    /// | glance, drifting hold | out 20–80° at 90–300 °/s, then for 0.3–1 s the head turns on the same way at 5–30 °/s while the eyes counter-roll to hold the target [the head's movement outlasts the gaze shift, and its share grows with the shift's size beyond ~25°: Freedman & Sparks 1997; Guitton & Volle 1987; the rates from the held-out glances], back as fast as out (0.8–1.2) |
    /// | look-backs | over one shoulder, 50–90° at 100–300 °/s, a look of 0.2–1 s (half of them drifting), back as fast; once or twice in a row to the same side |
    /// | turning to someone | 30–90° at 60–200 °/s, 1–5 s with them (the head moving with the conversation, drifting by up to 20 %), back at 0.6–1.2 of the speed |
    /// | looking around | 20–90° turns at 20–60 °/s, one after another |
    /// | head tilt | roll 10–35° toward a shoulder at 30–150 °/s, held 0–1.5 s, back; pitch cross-talk up to 30 %, yaw up to 15 % |
    /// | talking, chewing | ±0.3–1.5° at 1–4 Hz in pitch/yaw/roll (≤ 20 °/s); chewing ±0.2–0.5° at 1–2 Hz |
    /// | walking, running | pitch at the step rate (1.6–2.2 Hz walking, 2.5–3.2 Hz running), ±1.5–3° walking, ±3–6° running, roll and yaw at the stride rate; heel strikes swing the head's vertical acceleration by ±2–3 m/s² walking, ±5–10 m/s² running at the step rate (the gait figures; no published source checked here); head rotation during walking, running and hopping stays below 38 and 185 °/s in amplitude and peak rate [video study of ten subjects, Pozzo, Berthoz & Lefort, Exp. Brain Res. 1990, as the abstract found reports it], predominantly at 2 Hz [Ecological momentary assessment of head motion, Front. Hum. Neurosci. 13:179, 2019: 10 h IMU recordings]; the rhythm does not break |
    /// | boxing dodges | slips (roll 15–35° at 150–400 °/s, yaw and pitch cross-talk up to 40 %), pull-backs (nose up 10–25° at 150–300 °/s), weaves (nose down 10–20° with 0.6–1.5 as much roll), each returned after 0–0.3 s (no published source found: the description of the held-out set) |
    /// | boxing slips and rolls | the trunk turns and carries the head: slips 10–25 cm sideways with 10–40° of yaw and 10–50 % as much roll, rolls 10–20 cm down and 15–30 cm across with 15–40° of yaw; each leg 0.15–0.35 s (a dodge beats a punch delivered in a few tenths of a second: Piorkowski, Lees & Barton 2011) and no faster than human head rotation accelerates (≤ 5 000 °/s², Equilibrium Res. 46:155), returned after 0–0.3 s at 0.5–1.0 of the speed |
    ///
    /// What tells gestures from the distractors, and therefore what the rules below check: a gesture is an
    /// oscillation that starts and stops (a nod does not begin inside a pitch rhythm that has gone on for 2 s, as
    /// walking and running do, and its two-swing form turns the head ≥ 6°, more than gait does); a nod is pitch about the
    /// head's left-right axis (a tilt is roll), a shake is yaw about the vertical (a slip is mostly roll);
    /// a two-swing gesture reverses without a hold (a glance holds while the eyes fixate, its head drifting on
    /// slowly) and, as a nod, starts nose-down (a pull-back starts nose-up); a single swing of a gesture stays
    /// within the range of a vigorous shake (≤ 91°), and a shake within half of it of where the head rested,
    /// while a glance or a look back over a shoulder goes further; and a gesture only turns the head, where gait
    /// and a boxer's dodges carry it (the accelerometer says so).
    public struct Settings: Sendable, Equatable {
        // MARK: Swings (half-waves), the building block of nods and shakes

        /// A swing about an axis starts when the rate exceeds this, and ends when it falls below half of it
        /// (hysteresis, so gyro noise at 1 kHz cannot chop one swing into several). 0.2 rad/s (11 °/s) is far
        /// above gyro noise and the bias left after calibration, and below the slowest gesture swing (30 °/s).
        public var activeRate = HeadGestureFacts.activeRate

        /// Every swing of a nod or shake must peak at least this fast (rad/s); see `GesturePreset`.
        /// Default: `normal`, 26 °/s, under the 30 °/s gentlest return swing of the model.
        public var swingRate = GesturePreset.normal.swingRate

        /// Each swing must turn the head at least this far (rad): 3°, under the 5° smallest gesture swing
        /// of the model and above the ±1.5° of talking and chewing.
        public var minSwingAngle = HeadGestureFacts.minSwingAngle

        /// From a run's fourth swing on, a swing counts from this fraction of `minSwingAngle`: 1/2 (1.5°). The
        /// evidence that starts an oscillation is stricter than what continues it, as a swing itself starts at
        /// `activeRate` and ends at half of it; and a nod's later cycles are smaller than its first [Mori, Den &
        /// Jokinen 2025: the last cycle smaller]. Three swings of 3° or more have made it an oscillation already;
        /// a quick shake's fourth swing at 30 Hz measures 2–3° (2–3 samples of a 5–7 Hz shake after the
        /// low-pass), and without this the run ended one swing short of always-on's two cycles. Measured in
        /// docs/gestures.md.
        public var continuingSwingFraction = 0.5

        /// Longest swing, measured between the threshold crossings: 0.7 s. The slowest gesture of the model
        /// (0.8 Hz, i.e. 0.62 s a swing) fits; looking around (20–60 °/s over 20–90°) takes longer.
        public var maxHalfWaveDuration = HeadGestureFacts.maxSwingDuration

        /// Longest pause between two swings of one gesture (s): the 0.7 s of the model's slowest oscillation;
        /// swings further apart are separate movements, and a gesture's run ends there.
        public var maxGap = HeadGestureFacts.maxGap

        /// A gesture lasts while its oscillation goes on: it is reported once, and the next gesture of its
        /// kind needs a pause of this long (s) between two of its swings first: 0.6 s, the longest pause the
        /// model has inside one gesture (people pause 0.1–0.6 s between the nods of a long "yes"), shorter
        /// than a wearer takes between two answers.
        public var gesturePause = 0.6

        /// A two-swing gesture (one down-up, one left-right) must reverse within this pause between its
        /// swings (s): 0.25 s. A gesture's reversal (model: 0–0.1 s plus the time the rate spends under the
        /// activity threshold around the reversal, ≤ 0.1 s at 30 °/s) fits; a glance holds 0.3 s or more
        /// while the eyes fixate, so a glance and back is no shake. In a shake of any length such a hold at a
        /// reversal ends the run: what follows is a new movement (a nod's cycles may pause, see `gesturePause`).
        /// For a shake the hold is how long the head turned slowly (`holdSpeedFraction`), since a glance's
        /// hold is no stillness: the head drifts on. For a nod it is the time between the swings' threshold
        /// crossings, and a nod's hold ends no run (its cycles may pause between them, `gesturePause`), but
        /// the nod rules refuse a hold at a nod's far end (`Completion.farPause`): a look down at something
        /// holds there, a nod turns back at once.
        public var maxTurnPause = 0.25

        /// A shake's reversal is timed from where the swing before it slowed below this fraction of its peak
        /// to where the next is that fast again: 1/3. After a gaze shift the head keeps turning the same way
        /// at 5–30 °/s while the eyes counter-roll to hold the target (eye-head coordination: the head's
        /// movement outlasts the gaze shift [Freedman & Sparks 1997; Guitton & Volle 1987]; the rates from
        /// the held-out glances), and the slowest glance turns out at 90 °/s: a third of it is the
        /// fastest drift. A shake's swings reverse at once, so at a third of the peak each way the reversal
        /// takes a tenth of a swing on a bell-shaped profile (0.03 s for a 0.3 s swing), the same speed
        /// back: a shake's way back is 0.6–1.1 as fast as its way out.
        public var holdSpeedFraction = 1.0 / 3

        /// A shake turns the head at most this far (rad) from where it rested before the shake: 45.5°, half
        /// the widest range of motion of vigorous shaking (Funk et al.: 20–91°), since a shake swings about the
        /// middle. Looking back over a shoulder turns 50–90° and comes back (the look-backs), and a
        /// glance's out swing reaches 20–80° (Zangemeister & Stark 1982); the head's share of a gaze shift
        /// grows with its size beyond ~25° [Freedman & Sparks 1997], so wide glances are made by the head.
        /// Where the head rested is known only after a hold (`maxTurnPause`) in view: a window that opens
        /// mid-shake has no such point, and the rule does not apply there. From two cycles on it is measured
        /// from the oscillation's own centre instead (`shakeExcursionFromCentre`).
        public var maxShakeExcursion = 45.5 * Units.radiansPerDegree

        /// The larger swing of a two-swing gesture must turn the head at least this far (rad): 5°. The
        /// smallest single nod of the model is 6°, and the detector measures a swing between its threshold
        /// crossings after the sensor's low-pass, which loses 2–4 % of a gentle one (a 6° nod measured 5.7–5.9°
        /// on the cohort: at 6° three of 200 single nods were missed). Most of walking's pitch rocking
        /// (±1.5–3°, so swings of 3–6°) stays under it; the lead-in and carriage rules take the rest.
        public var minTwoSwingAngle = 5 * Units.radiansPerDegree

        /// A swing of a two-swing gesture may turn the head at most this far (rad): 91°, the whole range of
        /// the widest vigorous shake (Funk et al.: 20–91° range of motion), since a shake's second swing crosses
        /// from one side to the other (one side only, 45°, refused the crossing swing of a ±30° shake). Turning
        /// further (looking over a shoulder) is no swing of a gesture; a glance is told by its hold
        /// (`maxTurnPause`), not by its width. The cohort figures behind it are in docs/results/.
        public var maxTwoSwingAngle = HeadGestureFacts.maxSwingAngle

        /// Swings about one axis less than this apart (s) are one continuing oscillation: 0.2 s, longer than
        /// the reversal of walking and running pitch (1.6–3.2 Hz) takes under the activity threshold (0.14 s
        /// at the slow end of walking). A slow swing (longer than `maxHalfWaveDuration`) or one weaker than
        /// `swingRate` ends the oscillation.
        public var chainGap = 0.2

        /// A nod must not begin inside an oscillation that has been going on for longer than this (s): 2 s,
        /// and a nod oscillation yields one nod however often its run breaks and starts again. Walking and
        /// running rock the head in pitch at 1.6–3.2 Hz without a break for as long as they last; a nod
        /// starts after a pause of brisk pitch movement. The price: a nod made while walking is not reported,
        /// and the first steps of a walk may be taken for one (see the closing note).
        public var maxLeadIn = 2.0

        /// A nod only turns the head; gait and dodges carry it. Heel strikes swing the head's vertical
        /// acceleration by ±2–3 m/s² walking and ±5–10 m/s² running at the step rate while it rocks in pitch
        /// by only a few degrees; a boxer's pull-back, slip or weave moves the head 10–25 cm with the trunk
        /// (no published range: the description of its held-out set). A nod is a rotation about the
        /// neck: a sensor at distance r from the pivot accelerates by at most r · (|angular acceleration| +
        /// |rate|²). `leverArm` is that distance (m): 0.07 m, a sensor on or near the ear a few centimetres
        /// from the head–neck pivot (C0–C1, a little below ear level). A nod is not taken while the
        /// peak-to-peak range of the linear acceleration (gravity removed, all three head axes, 10 Hz
        /// low-pass, peaks held `bounceHold`) exceeds `bounceFloor` plus what a rotation at that lever arm
        /// explains (leverArm · (2 · peak |angular acceleration| + peak |rate|²)).
        /// Measured on the shared headphone nods (30 Hz, 130–250 °/s): vertical range over angular-acceleration
        /// range is 0.035 m median, 0.065 m p90, 0.11 m p99 (the floor covers the rest); walking there is
        /// 0.14 m p10, 0.30 m median; with all three axes every recorded nod and shake bout is still found.
        /// Nods only; shakes have a rule of their own about the vertical (`shakeLeverArm`). Needs the
        /// accelerometer (`update(t:gyro:accel:attitude:)`); without it the rule is off.
        public var leverArm = 0.07

        /// A shake only turns the head about the neck; a boxer's slip or roll swings it about the waist with
        /// the trunk. A point at r (horizontal) from a vertical axis turning at rate w with angular acceleration
        /// s accelerates by s (up × r) − w² r: horizontally, by at most |r| (|s| + w²), and follows the turn.
        /// `shakeLeverArm` is the farthest an ear-worn sensor sits from the head's yaw axis (m): 0.15 m. Half
        /// the head's breadth is 7–8 cm in adults (maximum breadth above the ears: 145–165 mm in men, 5th–95th
        /// percentile, 135–150 mm in women; Pheasant's anthropometric tables), a headphone cup adds 2–4 cm,
        /// and the axis (through C1–C2) lies within a centimetre or two of the ears' line: 12 cm,
        /// with room for the head's own small translation in a shake (fitted on the shared headphone shakes,
        /// the lever comes out at 0.05–0.14 m, median 0.11 m). A shake is not taken while the horizontal
        /// peak-to-peak range of the linear acceleration (the low-pass and peak holds of the nod rule) exceeds
        /// `bounceFloor` + shakeLeverArm · (2 · peak |vertical angular acceleration| + peak vertical rate²), nor
        /// while a least-squares fit of that acceleration to a turn about a vertical axis (over the same
        /// `bounceHold`) puts the sensor farther than shakeLeverArm from the axis: a pivot outside the head. A
        /// slip carries the head 10–25 cm while the trunk turns it 10–40°, as a point 15–140 cm from the axis
        /// would move; vigorous shaking reaches 2 500–5 000 °/s² (44–87 rad/s²) [active head rotation at
        /// 2–5 Hz, Equilibrium Res. 46:155]. The vertical is left out, so a shake made while walking (heel
        /// strikes bounce the head up and down) still counts.
        public var shakeLeverArm = 0.15

        /// Linear acceleration range (m/s²) always allowed: 1 m/s², for the attitude filter's tilt error
        /// during fast head motion (2° of tilt leaks 0.34 m/s² of gravity each way, 0.7 m/s² of range) and
        /// accelerometer noise after the 10 Hz low-pass (≤ 0.3 m/s² of range at the noisiest cohort device).
        public var bounceFloor = 1.0

        /// How long the bounce and angular-acceleration peaks are held (s, exponential decay): 0.5 s, one
        /// step of the slowest walk (1.6 Hz is 0.62 s a step), so a bounce between two steps is not forgotten.
        public var bounceHold = 0.5

        /// The gesture axis must dominate: a swing's peak must be at least this many times the largest change
        /// of the rate about the other axes during it. 2 keeps the rotation axis within ~27° of the gesture
        /// axis: a tilt with 30 % pitch cross-talk and a slip with 40 % yaw cross-talk fail it. It is the
        /// change of the other rate, not its size, so a nod made during a steady turn still counts.
        public var dominance = 2.0

        /// Two swings alternate when their rotation axes are within this angle of opposite (rad): 45°.
        /// Walking rocks the head in roll and pitch by turns, whose axes are about 90° apart.
        public var alternationTolerance = HeadGestureFacts.alternationTolerance

        /// A swing counts as certain, and the gesture it completes is reported, once its rate has fallen to
        /// this fraction of its peak: 0.9 — past the peak, so the swing's speed and direction are known, and
        /// 10 % below it, far beyond the rate noise after the 10 Hz low-pass (≤ 0.3 °/s against the 26 °/s
        /// slowest swing), so a noisy plateau is not taken for the peak. On a sine-shaped swing that is 0.14
        /// of the swing after its peak (≤ 0.09 s for the model's slowest, 0.62 s swings): soon enough for a
        /// one-second recording, late enough that gait and boxing gain at most 0.01 false events per minute
        /// over 0.8 (docs/results/gestures-windows.md).
        public var peakPassedFraction = 0.9

        /// Swings that make a single nod (down-up) and a single shake (one left-right): 2 each; see
        /// `maxTurnPause` for how a glance is told from a two-swing shake. Taken while a question is pending
        /// (`GestureDetector.listening`), or always with `singleGesturesAlways`.
        public var nodHalfWaves = 2
        public var shakeHalfWaves = 2

        /// Swings a nod and a shake need when no question is pending (always-on): 4 each, two cycles. A single
        /// down-up is what a glance at the keyboard and back is, several times a minute while typing (down at
        /// 60–90 °/s, a hold of 0.1–0.3 s, back as fast), and a single left-right is a glance aside and back;
        /// no rule on one cycle tells them apart from a gentle "yes" or "no" reliably. Products that take a
        /// single nod as "yes" (earbuds accepting a call, assistants on glasses) listen only while a question is
        /// pending. A second cycle is what ordinary looking does not make: people look at a thing and back,
        /// not there-back-there-back within a gesture's pauses. Measured on the shared daily-life recordings
        /// (docs/gestures.md).
        public var alwaysOnNodHalfWaves = 4
        public var alwaysOnShakeHalfWaves = 4

        /// Take single nods and shakes even when no question is pending (config `gestures.single: "always"`),
        /// at the cost in false gestures that docs/gestures.md measures on daily life.
        public var singleGesturesAlways = false

        /// A single gesture (two swings, answer mode) begins from a head that was not already swinging: no
        /// brisk swing (peak ≥ `swingRate`) for `maxTurnPause` before its first swing, the same hold that
        /// marks where a head rested (`maxShakeExcursion`). A "yes" answers a question the wearer has just
        /// heard, with the head poised; a head turning to and fro while it walks, fidgets or moves a chair
        /// makes out-and-back swings that continue motion already going on. When the tracker had not watched
        /// that long before the first swing (a recording or window that opens just before the answer), what
        /// came before is unknown and the rule does not apply. Measured in docs/gestures.md.
        public var singleGestureFromRest = true

        /// The rest before a single gesture (`singleGestureFromRest`) is a rest of the whole head: for
        /// `maxTurnPause` before its first swing, the head's rate about every axis stayed within `swingRate` of
        /// its own mean over that time. A head poised for an answer is still, or turns steadily (a nod made
        /// while turning toward someone counts); one that just started, stopped or reversed a brisk movement
        /// about another axis (turning to look at something and stopping there, rocking with a step, bobbing
        /// while it fidgets) is still on the move, and its next out-and-back is no answer.
        public var singleGestureFromHeadRest = true

        /// With a mount, the gesture axes are the head's own: a shake turns about the head's up axis and a nod
        /// about its left axis, whatever the posture, since the neck turns the head about head-fixed axes. A
        /// "no" made looking down 30° turns about an axis 30° from the vertical; measured about gravity only
        /// cos 30° of it counts and the rest looks like roll, which the dominance test refuses. Gravity still
        /// splits the accelerometer for the carriage rules (the body's motion is in the world). Without a
        /// mount the head's axes are unknown and gravity gives both.
        public var headAxesFromMount = true

        /// From two cycles on (four swings: two reversals on each side), a shake's excursion is measured from
        /// its oscillation's own centre, as half the range between its reversals, instead of from where the
        /// head rested: a shake made with the head already turned 50–90° (the head turns to someone, then
        /// shakes) swings about that turned position. A single gesture has one reversal and no centre of its
        /// own, so a look back over the shoulder and back (out and back, from rest) is still measured from
        /// the rest.
        public var shakeExcursionFromCentre = true

        /// A completing swing refused by a carriage rule (`leverArm`, `shakeLeverArm`) stays refused while
        /// it goes on: the body carried the head during that swing, and that does not change a few samples
        /// later when the peak holds have decayed or the allowance has grown with the swing's own angular
        /// acceleration (evidence with hysteresis, not a verdict that flickers sample to sample).
        public var carriageRefusalHolds = true

        /// A gesture is made by a head the body holds up; a running body is airborne between its steps, and so
        /// is the head it carries: its specific force falls to nearly nothing (free fall). The head's
        /// specific force below `freeFallForce` for `minFlight` or longer, ending after a run's first swing began
        /// (or still going on), says the wearer is running or jumping, and that run is gait, not a gesture, in
        /// either mode. Needs the accelerometer; without it the rule is off. 0.3 g: the low end of the 300–600 mg free-fall threshold an accelerometer
        /// maker recommends for drop detection (ADXL345 datasheet), over the magnitude of all three axes; a
        /// supported head's vigorous shaking dips no lower than 0.24 g (the shared headphone shakes, 30 Hz).
        public var freeFallForce = 0.3 * Units.standardGravity

        /// The shortest time below `freeFallForce` that counts as a flight (s): 0.05 s. A running step's flight
        /// lasts about 0.1 s at the head (the shared running recordings below 0.3 g: median 0.06 s, p90
        /// 0.14 s per step); one sample of an earbud (25–50 Hz) is 0.02–0.04 s, so a single noisy sample
        /// is no flight. (A drop detector waits 100–350 ms, ADXL345 datasheet: a dropped device falls for
        /// longer than a runner flies.)
        public var minFlight = 0.05

        /// Minimum time between two reported gestures (s): 0.5 s. Each gesture is reported once anyway (its
        /// run must end before another can start); this keeps a nod's cross-talk from reporting a shake.
        public var cooldown = 0.5

        /// Time constant of the low-pass on the angular rate (s): 0.016 s, a 10 Hz corner. Head gestures live
        /// below 6 Hz; the filter makes a 1 kHz stream (vibration, footfall spikes) look like a 26–100 Hz one.
        public var smoothingTimeConstant = 0.016

        // MARK: Directional flicks (off by default)

        /// Report up/down/left/right flicks: single quick movements that are not part of a nod or shake.
        public var flicks = false

        /// Peak rate a flick must reach (rad/s); see `FlickPreset`. Default: the `normal` preset, 2.4 rad/s.
        public var flickRate = FlickPreset.normal.rate

        /// A flick is reported this long after its movement ends, if no opposite movement has begun by then
        /// (s). 0.2 s: a nod's second half-wave follows its first at once, a flick is held for a moment.
        public var flickHold = 0.2

        /// An opposite swing at least this fast during the hold turns a flick into a nod or shake (rad/s):
        /// 1 rad/s, so the slow drift back after a flick does not cancel it.
        public var flickReturnRate = 1.0

        public init() {}

        /// The settings a config file asks for: flicks on or off, the flick preset, the nod/shake preset and
        /// the cooldown. (Whether a mount names the head's axes follows from the pipeline's mount.)
        public init(flicks: Bool, preset: FlickPreset = .normal, gestures: GesturePreset = .normal,
                    cooldown: Double = 0.5) {
            self.init()
            self.flicks = flicks
            self.flickRate = preset.rate
            self.swingRate = gestures.swingRate
            self.cooldown = cooldown
        }

        public static let `default` = Settings()
    }
}
