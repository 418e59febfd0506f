import LibC
import Geometry

/// One swing of the head about one gesture axis, from the moment its rate rose above the activity threshold
/// to the moment it fell back.
public struct HalfWave: Sendable, Equatable {
    /// Interpolated threshold crossings (s).
    public var start: Double
    public var end: Double
    /// Rotation vector of the swing (∫ rate dt, head frame, rad): its direction is the rotation axis and sense.
    public var rotation: Vector3
    /// Peak rate about the swing's own axis (rad/s).
    public var peakRate: Double
    /// Largest change of the other axis' rate during the swing (rad/s).
    public var otherChange: Double
    /// Meets every swing condition of the settings (peak, duration, dominance, angle).
    public var qualifies: Bool
    /// Qualifying half-waves in the current alternating run, this one included (0 if this one does not qualify).
    public var runLength: Int

    public var duration: Double { end - start }
    public var axis: Vector3 { rotation.normalized }
}

/// The swing in progress, once it is past its peak and would complete a gesture: what the detector needs to
/// decide whether the gesture is certain.
struct Completion: Sendable {
    /// Swings of the run with this one.
    var swings: Int
    /// Start of the run's first swing (s).
    var runStart: Double
    /// How long the axis had been oscillating without a break when the run's first swing began (s).
    var leadIn: Double
    /// Rotation of the run's first swing and of this swing so far (rad, head frame).
    var firstRotation: Vector3
    var rotation: Vector3
    /// Shortest pause at a reversal of the run, this one's included (s): how long the head stood still
    /// between two swings (for shakes, how long it turned slowly: see `SwingLimits.holdsFromFastParts`).
    var pause: Double
    /// Longest pause at a reversal after an odd-numbered swing of the run (the first, third, ...), this one's
    /// included when it is one (s): where a nod that began from rest turns back at its far end.
    var farPause: Double
    /// Peak rate of the swing in progress so far (rad/s).
    var peak: Double
    /// Largest swing angle of the run (rad), this one so far included.
    var largestAngle: Double
    /// The run's first swing belongs to an oscillation that was already going on when the tracker started
    /// (nothing before it was seen): where and how the gesture began is not known.
    var originUnseen: Bool
    /// Where the run began is known: the head was held (slow, see `pause`) for `longestReversalPause` or more
    /// before its first swing, in view of the tracker. Then `excursion` is measured from there.
    var referenceKnown: Bool
    /// Farthest the head got from where the run's first swing began, along that swing's axis (rad).
    var excursion: Double
    /// How long the head had turned slowly (no brisk swing) before the run's first swing began, and how long
    /// the tracker had been watching by then (s): a hold shorter than the watch says the head was busy.
    var restBefore: Double
    /// How long the whole head (every axis) turned slower than `swingRate` before the run's first swing (s).
    var headRestBefore: Double
    var watchedBefore: Double
    /// Half the range between the run's reversals (where each swing ended, this one so far included) along
    /// its first swing's axis (rad): how far the head swings from the oscillation's own centre, wherever the
    /// head was turned when it began.
    var halfRange: Double
}

/// The settings a tracker uses per sample, copied out of `GestureDetector.Settings` once: the tracker keeps
/// them itself, so no call passes the whole settings struct (the compiler copied it, ~360 bytes, at every call).
struct SwingLimits: Sendable {
    var activeRate: Double
    var swingRate: Double
    var maxHalfWaveDuration: Double
    var dominance: Double
    var minSwingAngle: Double
    /// The smallest swing that continues a run of three or more (rad).
    var continuingSwingAngle: Double
    /// cos of `alternationTolerance`, computed once.
    var alternationCosine: Double
    var maxGap: Double
    var chainGap: Double
    var gesturePause: Double
    var peakPassedFraction: Double
    /// A pause at a reversal longer than this ends the run (s): `maxTurnPause` for shakes, whose reversals
    /// never stop (a hold at the turned position is a glance's fixation, and what follows is a new movement);
    /// never for nods, which the model lets pause 0.1–0.6 s at the top between the nods of one "yes".
    var longestReversalPause: Double
    /// Shakes: a reversal's pause is how long the head turned slower than `holdSpeedFraction` of the
    /// previous swing's peak (a glance's drifting hold), not only how long it stood still; nods: the time
    /// between the swings' threshold crossings (a gentle nod's return may be a third as fast as its way
    /// down, so a third of the way down's peak would count most of that return as a hold).
    var holdsFromFastParts: Bool
    var holdSpeedFraction: Double
    /// How long a hold before a run's first swing must last for its start to count as where the head rested.
    var referenceHold: Double

    init(_ s: GestureDetector.Settings, pausesAtReversals: Bool) {
        activeRate = s.activeRate; swingRate = s.swingRate; maxHalfWaveDuration = s.maxHalfWaveDuration
        dominance = s.dominance; minSwingAngle = s.minSwingAngle
        continuingSwingAngle = s.minSwingAngle * s.continuingSwingFraction; alternationCosine = cos(s.alternationTolerance)
        maxGap = s.maxGap; chainGap = s.chainGap; gesturePause = s.gesturePause
        peakPassedFraction = s.peakPassedFraction
        longestReversalPause = pausesAtReversals ? .infinity : s.maxTurnPause
        holdsFromFastParts = !pausesAtReversals
        holdSpeedFraction = s.holdSpeedFraction
        referenceHold = s.maxTurnPause
    }
}

/// Splits the angular rate about one gesture axis into swings (half-waves) and counts alternating runs of them.
///
/// The rate is a vector (the horizontal part of the head's rate, its pitch part, or its vertical part), so the
/// tracker needs no fixed reference direction: a swing's axis is the direction of its accumulated rotation,
/// and the next swing alternates if its axis points the opposite way.
///
/// The mount learner cuts swings with a segmenter of its own (`SwingTracker` in MountLearning), on purpose: it
/// has no head axes to split the rate by (it learns them), so it cuts the whole sensor-frame rate, ends a swing
/// only when the whole rate falls or reverses, and stamps sample times; this one ends a swing when the rate
/// along the swing's own axis falls, interpolates the crossings its hold and pause rules measure, and keeps
/// per swing what the run rules need. One set of rules for both would change the other's output;
/// docs/architecture.md ("What repeats on purpose") has the four differences.
struct HalfWaveTracker: Sendable {
    // The swing in progress.
    private(set) var isActive = false
    private var start = 0.0
    private var rotation = Vector3.zero
    private var peak = 0.0
    private var otherAtStart = Vector3.zero
    /// Squared largest change of the other axes' rate (rad²/s²): compared squared per sample, rooted when read.
    private var otherChangeSquared = 0.0
    private var otherChange: Double { otherChangeSquared.squareRoot() }
    private var previousComponent = 0.0
    /// Squared rate of the previous sample while no swing was in progress (0 during a swing).
    private var previousMagnitudeSquared = 0.0
    /// End of the latest swing of any size about this axis (s); the detector's start counts as one, since
    /// nothing is known of the motion before it.
    private var lastSwingEnd = -Double.infinity
    /// When the tracker started (s).
    private let startTime: Double
    /// The swing in progress began in the tracker's first update: it was under way before the tracker saw it.
    private var beganUnseen = false
    private var hasUpdated = false
    /// The swing in progress: when it was at its fastest, the last time it turned at `holdSpeedFraction` of
    /// that or faster, and the first time it turned at `holdSpeedFraction` of the previous brisk swing's
    /// peak (−∞ until then) (s).
    private var peakTime = 0.0
    private var fastEnd = 0.0
    private var fastStart = -Double.infinity
    /// The latest brisk swing's (peak ≥ `swingRate`) peak and the end of its fast part; before any, zero and
    /// the tracker's start.
    private var previousPeak = 0.0
    private var previousFastEnd = -Double.infinity

    // The alternating run so far.
    private(set) var runLength = 0
    private var lastAxis = Vector3.zero
    private(set) var lastEnd = -Double.infinity
    private var runStart = 0.0
    private var leadIn = 0.0
    private var firstRotation = Vector3.zero
    private var largestAngle = 0.0
    private var minPause = Double.infinity
    private var maxFarPause = 0.0
    /// The run was reported (or refused) as a gesture: it is one gesture however long it goes on.
    private(set) var isReported = false
    /// See `Completion`: whether the run's origin was unseen, whether its start is where the head rested,
    /// its first swing's axis (unit), where the head is along it at the latest swing's end and the farthest
    /// it got (rad).
    private var runOriginUnseen = false
    private var runReferenceKnown = false
    private var runAxis = Vector3.zero
    private var runPosition = 0.0
    private var runExcursion = 0.0
    private var runRestBefore = 0.0
    private var runHeadRestBefore = 0.0
    /// The swing in progress began this long (s) after the whole head last turned at `swingRate` or faster.
    private var headRestAtStart = 0.0
    /// Highest and lowest reversal of the run along `runAxis` (rad).
    private var runHighest = 0.0
    private var runLowest = 0.0
    private var runWatchedBefore = 0.0

    /// Forgets the alternating run (an unrelated movement intervened, or the pause was too long).
    mutating func endRun() {
        runLength = 0
        lastAxis = .zero
        isReported = false
        largestAngle = 0
    }

    /// The current run is one gesture from now on: it must not be reported again.
    mutating func markReported() {
        isReported = true
        oscillationReported = true
    }

    /// Axis of the swing in progress (unit), or zero.
    var activeAxis: Vector3 { isActive ? rotation.normalized : .zero }
    var activePeak: Double { isActive ? peak : 0 }

    /// Start of the chain of back-to-back swings the latest swing belongs to (s): swings about this axis,
    /// each beginning within `chainGap` of the previous one's end.
    private var chainStart = -Double.infinity
    /// A gesture was reported and its oscillation has not paused since: it is that one gesture, even where
    /// its run breaks and starts again (a long bout of nodding, or the first steps of a walk).
    private var oscillationReported = false

    let limits: SwingLimits

    /// `pausesAtReversals`: the gesture may rest at a reversal and go on (nods); otherwise a rest there ends
    /// the run (shakes).
    init(startTime: Double = -Double.infinity, settings: GestureDetector.Settings = .default,
         pausesAtReversals: Bool = true) {
        limits = SwingLimits(settings, pausesAtReversals: pausesAtReversals)
        self.startTime = startTime
        lastSwingEnd = startTime
        chainStart = startTime
        previousFastEnd = startTime
    }

    /// Feeds one sample: `rate` about this tracker's axis, `other` the rate about the other axes, `dt` since
    /// the previous sample, `headBriskAt` the last sample before this one at which the whole head turned at
    /// `swingRate` or faster. Returns the half-wave that just ended, if one did.
    @inline(__always)
    mutating func update(t: Double, dt: Double, rate: Vector3, other: Vector3,
                         headBriskAt: Double = -Double.infinity) -> HalfWave? {
        var finished: HalfWave? = nil
        if isActive {
            // The rate's component along the swing's axis so far, with one square root and no normalised copy.
            let component = rate.dot(rotation) / rotation.dot(rotation).squareRoot()
            let endLevel = limits.activeRate / 2
            if component < endLevel {
                // Interpolate the crossing between the previous sample and this one.
                let fraction = (previousComponent - endLevel) / Swift.max(previousComponent - component, 1e-12)
                let end = t - dt + Swift.min(Swift.max(fraction, 0), 1) * dt
                markFastParts(t: t, dt: dt, component: component)
                finished = finish(end: end)
            } else {
                rotation += rate * dt
                if component > peak { peak = component; peakTime = t }
                markFastParts(t: t, dt: dt, component: component)
                let change = other - otherAtStart
                otherChangeSquared = Swift.max(otherChangeSquared, change.dot(change))
                previousComponent = component
            }
        }
        let magnitudeSquared = rate.dot(rate)
        if !isActive && magnitudeSquared > limits.activeRate * limits.activeRate {
            let magnitude = magnitudeSquared.squareRoot()
            let below = Swift.min(previousMagnitudeSquared.squareRoot(), limits.activeRate)
            let fraction = (limits.activeRate - below) / Swift.max(magnitude - below, 1e-12)
            start = t - dt + Swift.min(Swift.max(fraction, 0), 1) * dt
            headRestAtStart = start - Swift.max(headBriskAt, startTime)
            rotation = rate * dt
            peak = magnitude
            peakTime = t
            fastEnd = t
            fastStart = magnitude >= limits.holdSpeedFraction * previousPeak ? start : -Double.infinity
            beganUnseen = !hasUpdated
            otherAtStart = other
            otherChangeSquared = 0
            previousComponent = magnitude
            isActive = true
        }
        hasUpdated = true
        previousMagnitudeSquared = isActive ? 0 : magnitudeSquared
        if !isActive && runLength > 0 && t - lastEnd > limits.maxGap { endRun() }
        return finished
    }

    /// Keeps the times at which the swing in progress is turning fast, against its own peak so far (`fastEnd`)
    /// and the previous brisk swing's (`fastStart`), interpolated between samples.
    @inline(__always)
    private mutating func markFastParts(t: Double, dt: Double, component: Double) {
        let own = limits.holdSpeedFraction * peak
        if component >= own {
            fastEnd = t
        } else if previousComponent >= own {
            fastEnd = t - dt + (previousComponent - own) / Swift.max(previousComponent - component, 1e-12) * dt
        }
        let previous = limits.holdSpeedFraction * previousPeak
        if fastStart == -Double.infinity && component >= previous {
            fastStart = t - dt + Swift.min(Swift.max((previous - previousComponent) / Swift.max(component - previousComponent, 1e-12), 0), 1) * dt
        }
    }

    /// How long the head turned slowly before the swing in progress (s): from the end of the previous brisk
    /// swing's fast part to where this one turns at `holdSpeedFraction` of that swing's peak (its own peak,
    /// if it never does).
    @inline(__always)
    private var holdBefore: Double {
        (fastStart > -Double.infinity ? fastStart : peakTime) - previousFastEnd
    }

    /// The pause at the reversal into the swing in progress, as the run rules measure it (see `Completion.pause`).
    @inline(__always)
    private var reversalPause: Double { limits.holdsFromFastParts ? holdBefore : start - lastEnd }

    /// The swing in progress, if it is past its peak, meets the swing conditions so far, alternates with the
    /// run, and brings it to `needed` swings or more; nil otherwise or when the run was already reported.
    /// With `oneGesturePerOscillation`, an oscillation that already had its gesture reported offers no more.
    @inline(__always)
    func completion(t: Double, needed: Int, oneGesturePerOscillation: Bool) -> Completion? {
        guard isActive, !isReported, runLength + 1 >= needed, runLength > 0 else { return nil }
        if oneGesturePerOscillation && oscillationReported { return nil }
        let pauseNow = reversalPause
        // Only a swing that would extend the run completes it: one after a hold longer than a reversal's
        // (a shake's glance-like fixation) begins a new run in `finish`, so it completes nothing here either.
        guard peak >= limits.swingRate, previousComponent <= limits.peakPassedFraction * peak,
              t - start <= limits.maxHalfWaveDuration, peak >= limits.dominance * otherChange,
              pauseNow <= limits.longestReversalPause,
              rotation.length >= continuingAngle, alternates(rotation.normalized, start: start)
        else { return nil }
        let signedPosition = runPosition + rotation.dot(runAxis)
        let position = abs(signedPosition)
        return Completion(swings: runLength + 1, runStart: runStart, leadIn: leadIn,
                          firstRotation: firstRotation, rotation: rotation, pause: Swift.min(minPause, pauseNow),
                          farPause: runLength % 2 == 1 ? Swift.max(maxFarPause, pauseNow) : maxFarPause, peak: peak,
                          largestAngle: Swift.max(largestAngle, rotation.length), originUnseen: runOriginUnseen,
                          referenceKnown: runReferenceKnown, excursion: Swift.max(runExcursion, position),
                          restBefore: runRestBefore, headRestBefore: runHeadRestBefore, watchedBefore: runWatchedBefore,
                          halfRange: (Swift.max(runHighest, signedPosition) - Swift.min(runLowest, signedPosition)) / 2)
    }

    /// The smallest swing that may extend the run: `minSwingAngle`, or, for a run already three swings long,
    /// the smaller `continuingSwingAngle` (`GestureDetector.Settings.continuingSwingFraction`). A swing that
    /// would begin a run (see `finish`) needs `minSwingAngle` whatever came before.
    @inline(__always)
    private var continuingAngle: Double { runLength >= 3 ? limits.continuingSwingAngle : limits.minSwingAngle }

    /// A new oscillation begins at `t`: it may be a new gesture.
    private mutating func startChain(at t: Double) {
        chainStart = t
        oscillationReported = false
    }

    @inline(__always)
    private func alternates(_ axis: Vector3, start: Double) -> Bool {
        runLength > 0 && axis.dot(lastAxis) < -limits.alternationCosine && start - lastEnd <= limits.maxGap
    }

    @inline(__always)
    private mutating func finish(end: Double) -> HalfWave {
        isActive = false
        let angle = rotation.length
        let axis = rotation.normalized
        let pauseBefore = reversalPause
        let heldBefore = holdBefore
        // A pause longer than a gesture's own ends it: what follows is a new one (the next "yes"). For a
        // shake, already a hold at the turned position does (see `SwingLimits.longestReversalPause`).
        let paused = start - lastEnd > limits.gesturePause
        let held = pauseBefore > limits.longestReversalPause
        let extendsRun = alternates(axis, start: start) && !(paused && isReported) && !held
        // A swing under way when the tracker started was seen while the vertical that splits the rate was
        // still being found (the attitude filter starts from one accelerometer sample taken mid-movement):
        // the change of the other rate during it says nothing about its axis.
        let qualifies = peak >= limits.swingRate
            && end - start <= limits.maxHalfWaveDuration
            && (peak >= limits.dominance * otherChange || beganUnseen)
            && angle >= (extendsRun ? continuingAngle : limits.minSwingAngle)
        let stillBefore = start - lastSwingEnd
        lastSwingEnd = end
        if peak >= limits.swingRate {
            previousPeak = peak
            previousFastEnd = fastEnd
        }
        // Back-to-back swings are one oscillation; a slow swing (looking up or down, turning) or a weak one
        // is no part of a rhythm, so a new oscillation may begin after it.
        if stillBefore > limits.chainGap { startChain(at: start) }
        let chainUnseen = chainStart == startTime
        if end - start > limits.maxHalfWaveDuration || peak < limits.swingRate { startChain(at: end) }
        let oscillatingFor = start - chainStart
        if qualifies {
            if paused { oscillationReported = false }
            if extendsRun {
                if runLength % 2 == 1 { maxFarPause = Swift.max(maxFarPause, pauseBefore) }
                runLength += 1
                minPause = Swift.min(minPause, pauseBefore)
                largestAngle = Swift.max(largestAngle, angle)
                runPosition += rotation.dot(runAxis)
                runExcursion = Swift.max(runExcursion, abs(runPosition))
                runHighest = Swift.max(runHighest, runPosition)
                runLowest = Swift.min(runLowest, runPosition)
            } else {
                endRun()
                runLength = 1
                runStart = start
                leadIn = oscillatingFor
                firstRotation = rotation
                largestAngle = angle
                minPause = .infinity
                maxFarPause = 0
                runOriginUnseen = beganUnseen
                runReferenceKnown = !chainUnseen && heldBefore >= limits.referenceHold
                runRestBefore = heldBefore
                runHeadRestBefore = headRestAtStart
                runWatchedBefore = start - startTime
                runAxis = axis
                runPosition = angle
                runExcursion = angle
                runHighest = angle
                runLowest = angle
            }
            lastAxis = axis
            lastEnd = end
        } else if peak >= limits.swingRate {
            // A brisk movement that is no swing of a gesture (too long, too small or about a mixed axis)
            // breaks the run; a small wobble does not, only the gap timer limits it.
            endRun()
        }
        return HalfWave(start: start, end: end, rotation: rotation, peakRate: peak, otherChange: otherChange,
                        qualifies: qualifies, runLength: qualifies ? runLength : 0)
    }
}
