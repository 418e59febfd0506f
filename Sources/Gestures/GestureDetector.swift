import LibC
import Geometry

/// Something that turns head motion into gesture events, one IMU sample at a time. Both the detector and the
/// classic baseline conform, so a replay or an evaluation can run either (generically, without existentials).
public protocol GestureRecognizer: Sendable {
    associatedtype Settings: Sendable
    static var defaultSettings: Settings { get }
    /// Spacing (s) the recognizer wants between its inputs: the pipeline averages consecutive samples until
    /// they span it (`GestureInputDecimator`); 0 feeds every sample.
    static var inputInterval: Double { get }
    /// Built by the pipeline, which says whether a mount names the head's axes (`headAxesKnown`): that
    /// follows from the pipeline's one `mount` value and from nothing else.
    init(settings: Settings, headAxesKnown: Bool)
    /// A question is pending (an app asked for a yes or no): the recognizer may take a single gesture as the
    /// answer. Otherwise it runs always-on and takes only what no ordinary movement makes. Set by the pipeline.
    var listening: Bool { get set }
    /// One input: time (s), bias-corrected angular rate in the head frame (rad/s; x forward, y left, z up),
    /// specific force in the head frame (m/s²), attitude head→ENU. The gesture it completes, if any.
    mutating func recognize(t: Double, gyro: Vector3, accel: Vector3, attitude: Quaternion) -> DetectedGesture?
}

/// Nod, shake and flick detector working on angular rate split by gravity: the vertical part of the rate
/// (about the earth's up axis, from the attitude) turns the head left and right, the horizontal part tilts
/// it. A shake is an oscillation about the vertical. A nod is an oscillation about the head's left-right axis
/// when the mount names it (`headAxesKnown`), so roll toward a shoulder is no nod; without a mount,
/// about any horizontal axis (nod and shake still come out right, but a tilt looks like a nod, and a shake
/// made looking down more than about 27° turns about an axis too far from the vertical to be one).
///
/// A gesture is a run of alternating swings, not made by a head that moves more than a rotation about the neck
/// explains (heel strikes, a boxer's dodges, slips and rolls; needs the accelerometer) nor by a body in flight
/// between running steps (the head in free fall, `Settings.freeFallForce`), a nod not inside an ongoing
/// gait rhythm, a shake that reverses without a hold (a glance's head drifts on while the eyes hold the target) and
/// stays within a shake's range of where the head rested (from two cycles on, of its oscillation's centre), and,
/// for a single gesture, one that begins from a head not already swinging (see `Settings` for the gesture model
/// each rule comes from). With a mount, the gesture axes are the head's own (`Settings.headAxesFromMount`). A swing already under way when the detector starts counts, though how it began was not seen. It is reported once, during its completing swing as soon as that swing is past its
/// peak, with its start and the swings seen so far; the run then goes on silently until it stops.
///
/// Pure and allocation-free: value types only, time comes in as an argument, thresholds are rates, angles
/// and durations, so it behaves the same from 25 Hz to 1 kHz.
public struct GestureDetector: GestureRecognizer {
    public let settings: Settings
    /// A mount names the head's axes. Then a nod is pitch about the head's left-right axis, roll (a tilt toward
    /// a shoulder) is no gesture, and a two-swing nod must start nose-down. Without it, any horizontal axis is
    /// a nod axis: nod and shake still come out right (gravity gives the vertical) but a tilt cannot be told
    /// from a nod, and a shake made looking down more than about 27° is refused (its axis is tilted from the
    /// vertical as far as the head is; measured: docs/gestures.md). The pipeline sets it from its mount.
    public let headAxesKnown: Bool

    /// A question is pending: a single nod (down-up) or shake (one left-right) counts. Otherwise (always-on)
    /// a nod or shake needs `alwaysOnNodHalfWaves` / `alwaysOnShakeHalfWaves` swings, unless
    /// `singleGesturesAlways` is set. See `Settings.alwaysOnNodHalfWaves` for why.
    public var listening = false
    /// The latest candidate's judgement, and how many there have been (a caller notices a new one by the
    /// count).
    public private(set) var verdict: GestureVerdict? = nil
    public private(set) var verdicts = 0

    private var nod: HalfWaveTracker
    private var shake: HalfWaveTracker
    private var smoothedGyro = Vector3.zero
    private var lastTime = -Double.infinity
    private var lastEvent = -Double.infinity
    /// The latest sample at which the whole head's rate differed from its recent mean (`headRateMean`) by
    /// `swingRate` or more (s): where its rest ended. A steady turn keeps near its mean; a movement that
    /// starts, stops or reverses does not.
    private var headBriskAt = -Double.infinity
    /// The head's rate averaged over about `maxTurnPause` (exponentially, rad/s).
    private var headRateMean = Vector3.zero
    private var cachedMeanAlpha = 1.0
    /// When the detector saw its first sample (s).
    private var startTime = -Double.infinity
    private var pendingFlick = PendingFlick.none
    /// The smoothing coefficient for the last sample interval: `exp` only when the interval changes by more
    /// than 1 % (a steady sensor clock computes it once).
    private var cachedDt = -1.0
    private var cachedAlpha = 1.0
    private var cachedDecay = 1.0
    private var cachedDecaySquared = 1.0
    /// How far the head is carried, beyond what its rotation explains, as decaying peak holds (see
    /// `Settings.leverArm`): the highest and lowest linear acceleration along each head axis (gravity removed,
    /// m/s²), the largest |angular acceleration| (rad/s²) and |angular rate| (rad/s) of the head, and the rate
    /// of the previous sample.
    private var carriedHigh = Vector3.zero
    private var carriedLow = Vector3.zero
    /// Squared, so that no square root is taken per sample (the decay is squared with them).
    private var spinHeldSquared = 0.0
    private var rateHeldSquared = 0.0
    private var previousRate = Vector3.zero
    /// Linear acceleration (head frame, gravity removed) through the same low-pass as the rate (m/s²).
    private var smoothedLinear = Vector3.zero
    /// The same for a shake (see `Settings.shakeLeverArm`): peak holds of the horizontal part of the linear
    /// acceleration, of the vertical angular acceleration and of the vertical rate (both squared), and the
    /// previous vertical rate.
    private var sidewaysHigh = Vector3.zero
    private var sidewaysLow = Vector3.zero
    private var yawSpinHeldSquared = 0.0
    private var yawRateHeldSquared = 0.0
    private var previousYawRate = 0.0
    /// A running least-squares fit of the horizontal linear acceleration to a turn about a vertical axis
    /// (`turnPivot`), decaying as the peak holds do: Σ Aᵀa and Σ AᵀA of a = A r.
    private var turnFitSum = Vector3.zero
    private var turnFitWeight = 0.0
    /// Whether any accelerometer sample came in (without one the carriage rule cannot apply).
    private var hasAccel = false
    /// How long the head's specific force has been below `freeFallForce` (s), and the latest flight
    /// (`minFlight` or longer): when it was last seen and how long it had lasted then (`Settings.freeFallForce`).
    private var fallingFor = 0.0
    private var lastFlightAt = -Double.infinity
    private var lastFlight = 0.0
    /// The completing swing (its run's start and its number in the run) a carriage rule last refused, per
    /// gesture axis: evidence that the body carried the head does not expire while that swing goes on, so a
    /// later sample of the same swing is not judged again (the peak holds decay and the allowance grows with
    /// the swing's angular acceleration, so the verdict could otherwise flip within a few samples).
    private var nodCarriedSwing = CarriedSwing()
    private var shakeCarriedSwing = CarriedSwing()
    private struct CarriedSwing: Sendable {
        var runStart = -Double.infinity
        var swings = 0
        /// The rule that refused it, with its value and limit then.
        var rule = GestureRule.carried
        var value = 0.0
        var limit = 0.0
        func isSame(_ c: Completion) -> Bool { c.runStart == runStart && c.swings == swings }
    }

    /// Checks a carriage rule, remembering a refusal for the rest of the completing swing.
    @inline(__always)
    @discardableResult
    private mutating func checkCarriage(_ rule: GestureRule, _ value: Double, _ limit: Double, _ c: Completion,
                                        nod isNod: Bool, into v: inout GestureVerdict) -> Bool {
        if v.check(rule, value, limit) { return true }
        let refused = CarriedSwing(runStart: c.runStart, swings: c.swings, rule: rule, value: value, limit: limit)
        if isNod { nodCarriedSwing = refused } else { shakeCarriedSwing = refused }
        return false
    }

    /// A flick waiting for its hold time, so that a nod or shake beginning with the same movement can claim it.
    private enum PendingFlick: Sendable {
        case none
        case waiting(event: GestureEvent, start: Double, due: Double, onShakeAxis: Bool, axis: Vector3)
    }

    public init(settings: Settings = .default, headAxesKnown: Bool = false) {
        self.settings = settings
        self.headAxesKnown = headAxesKnown
        nod = HalfWaveTracker(settings: settings)
        shake = HalfWaveTracker(settings: settings, pausesAtReversals: false)
    }

    public static var defaultSettings: Settings { .default }
    /// About 100 Hz: gestures live below 6 Hz (see `GestureInputDecimator`).
    public static var inputInterval: Double { GestureInputDecimator.productInterval }

    public mutating func recognize(t: Double, gyro: Vector3, accel: Vector3, attitude: Quaternion) -> DetectedGesture? {
        detect(t: t, gyro: gyro, accel: accel, attitude: attitude)
    }

    /// Forgets all motion history (a new recording window, or a sensor reset).
    public mutating func reset() {
        let wasListening = listening
        self = GestureDetector(settings: settings, headAxesKnown: headAxesKnown)
        listening = wasListening
    }

    /// Swings a nod and a shake need now: the single gesture while a question is pending (or when the wearer
    /// chose single gestures always), the repeated one otherwise.
    @inline(__always)
    private var neededSwings: (nod: Int, shake: Int) {
        listening || settings.singleGesturesAlways
            ? (settings.nodHalfWaves, settings.shakeHalfWaves)
            : (settings.alwaysOnNodHalfWaves, settings.alwaysOnShakeHalfWaves)
    }

    public mutating func update(t: Double, gyro: Vector3, attitude: Quaternion) -> GestureEvent? {
        detect(t: t, gyro: gyro, attitude: attitude)?.event
    }

    public mutating func update(t: Double, gyro: Vector3, accel: Vector3, attitude: Quaternion) -> GestureEvent? {
        detect(t: t, gyro: gyro, accel: accel, attitude: attitude)?.event
    }

    /// One sample, as `update`, returning the gesture with its start and swing count. `accel` is the
    /// specific force in the head frame (m/s²) when the accelerometer is available: with it, a nod is not
    /// taken from a head that moves more than its rotation explains (gait, dodges).
    public mutating func detect(t: Double, gyro: Vector3, accel: Vector3? = nil,
                                attitude: Quaternion) -> DetectedGesture? {
        guard gyro.isFinite, t.isFinite, attitude.isFinite, accel?.isFinite ?? true else { return nil }
        guard lastTime.isFinite, t >= lastTime else {
            // First sample, or time went backwards (a new recording): start afresh from this sample.
            reset()
            smoothedGyro = gyro
            headRateMean = gyro   // a recording may open mid-turn: that is no change of the rate
            previousRate = gyro   // no angular acceleration is known yet, and none is made up from zero
            previousYawRate = gyro.dot(GestureDetector.headUp(attitude))
            lastTime = t
            startTime = t
            nod = HalfWaveTracker(startTime: t, settings: settings)
            shake = HalfWaveTracker(startTime: t, settings: settings, pausesAtReversals: false)
            return nil
        }
        guard t > lastTime else { return nil }   // a repeated timestamp carries no motion
        let dt = t - lastTime
        lastTime = t
        let alpha = smoothingAlpha(dt)
        smoothedGyro += (gyro - smoothedGyro) * alpha

        // Split the rate by gravity: the vertical part turns the head left/right, the rest tilts it.
        let up = GestureDetector.headUp(attitude)
        var verticalRate = up * smoothedGyro.dot(up)
        var horizontalRate = smoothedGyro - verticalRate
        // With a mount, only pitch (about the head's left axis, made horizontal) is a nod.
        let left = horizontalLeft(up: up)
        var nodRate = headAxesKnown ? left * horizontalRate.dot(left) : horizontalRate
        if headAxesKnown && settings.headAxesFromMount {
            // The neck turns the head about the head's own axes, whatever its posture: a "no" made looking
            // down turns about the head's up axis, which is then tilted from the vertical.
            verticalRate = Vector3(0, 0, smoothedGyro.z)
            horizontalRate = Vector3(smoothedGyro.x, smoothedGyro.y, 0)
            nodRate = Vector3(0, smoothedGyro.y, 0)
        }
        trackCarriage(accel: accel, up: up, t: t, dt: dt, alpha: alpha)

        let nodWave = nod.update(t: t, dt: dt, rate: nodRate, other: smoothedGyro - nodRate, headBriskAt: headBriskAt)
        let shakeWave = shake.update(t: t, dt: dt, rate: verticalRate, other: horizontalRate, headBriskAt: headBriskAt)
        headRateMean += (smoothedGyro - headRateMean) * cachedMeanAlpha
        let change = smoothedGyro - headRateMean
        if change.dot(change) >= settings.swingRate * settings.swingRate { headBriskAt = t }

        let needed = neededSwings
        if let c = shake.completion(t: t, needed: needed.shake, oneGesturePerOscillation: false),
           judge(c, nod: false, left: left, t: t) {
            shake.markReported()
            if let e = report(.shake, c, at: t, otherOngoing: nod.isReported) { return e }
        }
        if let c = nod.completion(t: t, needed: needed.nod, oneGesturePerOscillation: true),
           judge(c, nod: true, left: left, t: t) {
            nod.markReported()
            if let e = report(.nod, c, at: t, otherOngoing: shake.isReported) { return e }
        }

        guard settings.flicks else { return nil }
        if let w = shakeWave, let e = flickCandidate(w, onShakeAxis: true, up: up) {
            pendingFlick = .waiting(event: e, start: w.start, due: w.end + settings.flickHold, onShakeAxis: true,
                                    axis: w.axis)
        } else if let w = nodWave, let e = flickCandidate(w, onShakeAxis: false, up: up) {
            pendingFlick = .waiting(event: e, start: w.start, due: w.end + settings.flickHold, onShakeAxis: false,
                                    axis: w.axis)
        }
        return resolvePendingFlick(at: t)
    }

    @inline(__always)
    private mutating func smoothingAlpha(_ dt: Double) -> Double {
        if abs(dt - cachedDt) > 0.01 * cachedDt {
            cachedDt = dt
            cachedAlpha = settings.smoothingTimeConstant > 0 ? 1 - exp(-dt / settings.smoothingTimeConstant) : 1
            cachedDecay = settings.bounceHold > 0 ? exp(-dt / settings.bounceHold) : 0
            cachedMeanAlpha = settings.maxTurnPause > 0 ? 1 - exp(-dt / settings.maxTurnPause) : 1
            cachedDecaySquared = cachedDecay * cachedDecay
        }
        return cachedAlpha
    }

    /// Updates the peak holds of the head's linear acceleration and of its rotation.
    @inline(__always)
    private mutating func trackCarriage(accel: Vector3?, up: Vector3, t: Double, dt: Double, alpha: Double) {
        let k = cachedDecay
        let change = smoothedGyro - previousRate
        let inverseDtSquared = 1 / (dt * dt)
        spinHeldSquared = Swift.max(change.dot(change) * inverseDtSquared, spinHeldSquared * cachedDecaySquared)
        rateHeldSquared = Swift.max(smoothedGyro.dot(smoothedGyro), rateHeldSquared * cachedDecaySquared)
        previousRate = smoothedGyro
        let yawRate = smoothedGyro.dot(up), yawChange = yawRate - previousYawRate
        let yawRateSquared = yawRate * yawRate, yawSpinSquared = yawChange * yawChange * inverseDtSquared
        yawSpinHeldSquared = Swift.max(yawSpinSquared, yawSpinHeldSquared * cachedDecaySquared)
        yawRateHeldSquared = Swift.max(yawRateSquared, yawRateHeldSquared * cachedDecaySquared)
        previousYawRate = yawRate
        guard let a = accel else { return }
        if a.dot(a) < settings.freeFallForce * settings.freeFallForce {
            fallingFor += dt
            if fallingFor >= settings.minFlight { lastFlightAt = t; lastFlight = fallingFor }
        } else {
            fallingFor = 0
        }
        let linear = a - up * Units.standardGravity
        if !hasAccel { smoothedLinear = linear }
        hasAccel = true
        smoothedLinear += (linear - smoothedLinear) * alpha
        carriedHigh = Vector3(Swift.max(smoothedLinear.x, carriedHigh.x * k), Swift.max(smoothedLinear.y, carriedHigh.y * k),
                              Swift.max(smoothedLinear.z, carriedHigh.z * k))
        carriedLow = Vector3(Swift.min(smoothedLinear.x, carriedLow.x * k), Swift.min(smoothedLinear.y, carriedLow.y * k),
                             Swift.min(smoothedLinear.z, carriedLow.z * k))
        let sideways = smoothedLinear - up * smoothedLinear.dot(up)
        sidewaysHigh = Vector3(Swift.max(sideways.x, sidewaysHigh.x * k), Swift.max(sideways.y, sidewaysHigh.y * k),
                               Swift.max(sideways.z, sidewaysHigh.z * k))
        sidewaysLow = Vector3(Swift.min(sideways.x, sidewaysLow.x * k), Swift.min(sideways.y, sidewaysLow.y * k),
                              Swift.min(sideways.z, sidewaysLow.z * k))
        // A point at r (horizontal, head frame) from a vertical axis turning at rate w with angular acceleration
        // s accelerates by a = s (up × r) − w² r = A r. On the horizontal plane AᵀA is (s² + w⁴) times the
        // identity and Aᵀa = s (a × up) − w² a, so the least-squares r is Σ Aᵀa / Σ (s² + w⁴).
        turnFitSum = turnFitSum * k + (sideways.cross(up) * (yawChange / dt) - sideways * yawRateSquared)
        turnFitWeight = turnFitWeight * k + yawSpinSquared + yawRateSquared * yawRateSquared
    }

    /// The head moves more than a rotation about the neck explains: the body carries it (the steps of a
    /// walk or a run, a boxer's pull-back, slip or weave). A point at `leverArm` from the pivot accelerates by
    /// at most leverArm · (|angular acceleration| + |rate|²); the range of that, both ways, plus the floor, is
    /// what a nod may show.
    private var carriage: (range: Double, allowed: Double) {
        guard hasAccel else { return (0, .infinity) }
        return ((carriedHigh - carriedLow).length,
                settings.bounceFloor + settings.leverArm * (2 * spinHeldSquared.squareRoot() + rateHeldSquared))
    }

    /// The head moves sideways more than turning it about the neck explains: the trunk carries it (a boxer's
    /// slip or roll). Either the horizontal acceleration exceeds what a turn gives a point `shakeLeverArm`
    /// from the axis, or it follows the turn as it would at a point farther out (the head swung about the
    /// waist). See `Settings.shakeLeverArm`.
    private var sidewaysCarriage: (range: Double, allowed: Double) {
        guard hasAccel else { return (0, .infinity) }
        return ((sidewaysHigh - sidewaysLow).length,
                settings.bounceFloor + settings.shakeLeverArm * (2 * yawSpinHeldSquared.squareRoot() + yawRateHeldSquared))
    }

    /// Where the least-squares turn fit puts the sensor from the vertical axis (m); 0 before any turn.
    private var turnPivot: Double {
        guard hasAccel, turnFitWeight > 0 else { return 0 }
        return turnFitSum.length / turnFitWeight
    }

    /// The head's left axis made horizontal (unit), or zero when the head lies on its side.
    private func horizontalLeft(up: Vector3) -> Vector3 {
        let h = Vector3(0, 1, 0) - up * up.y
        let squared = h.dot(h)
        return squared > 0.25 ? h * (1 / squared.squareRoot()) : .zero
    }

    /// The earth's up axis in the head frame: the third row of the attitude's rotation matrix (what
    /// `attitude.inverseRotate((0, 0, 1))` gives, without the general rotation).
    @inline(__always)
    static func headUp(_ q: Quaternion) -> Vector3 {
        Vector3(2 * (q.x * q.z - q.w * q.y), 2 * (q.y * q.z + q.w * q.x), 1 - 2 * (q.x * q.x + q.y * q.y))
    }

    // MARK: Deciding

    /// The run rules of the gesture model (see `Settings`): a nod not inside a long oscillation, not held at its
    /// far end; a gesture that only turns the head (the body does not carry it); a two-swing gesture reverses
    /// without a hold and stays within the range of a vigorous shake; a shake stays within half that range of
    /// where the head rested; with a mount, a two-swing nod starts
    /// nose-down, unless it was already under way when the detector started (what came before it was not seen).
    /// Every rule is measured, also after one has refused, and the verdict kept (`verdict`): what `replay
    /// --explain` and the stream's `explain` lines show is what decided. Judging happens only for a swing past
    /// its peak that would complete a gesture, so measuring the rest costs nothing measurable per sample
    /// (docs/gestures.md).
    private mutating func judge(_ c: Completion, nod isNod: Bool, left: Vector3, t: Double) -> Bool {
        var v = GestureVerdict(event: isNod ? .nod : .shake, t: t, start: c.runStart, swings: c.swings)
        defer {
            verdict = v
            verdicts &+= 1
        }
        let stuck = isNod ? nodCarriedSwing : shakeCarriedSwing
        let carriageDecided = settings.carriageRefusalHolds && stuck.isSame(c)
        if carriageDecided {
            // Refused by a carriage rule earlier in this same swing: that refusal stands.
            v.check(stuck.rule, stuck.value, stuck.limit)
        }
        if isNod {
            v.check(.leadIn, c.leadIn, settings.maxLeadIn)
            let carried = carriage
            if !carriageDecided { checkCarriage(.carried, carried.range, carried.allowed, c, nod: true, into: &v) }
            // A nod turns back at once at its far end; a look down at something holds there (see `maxTurnPause`).
            v.check(.farPause, c.farPause, settings.maxTurnPause)
        } else {
            let carried = sidewaysCarriage
            if !carriageDecided {
                checkCarriage(.carriedSideways, carried.range, carried.allowed, c, nod: false, into: &v)
                checkCarriage(.turnPivot, turnPivot, settings.shakeLeverArm, c, nod: false, into: &v)
            }
            if settings.shakeExcursionFromCentre && c.swings >= 4 {
                // Two cycles give the oscillation its own centre: two reversals on each side of it.
                v.check(.excursion, c.halfRange, settings.maxShakeExcursion)
            } else if c.referenceKnown {
                v.check(.excursion, c.excursion, settings.maxShakeExcursion)
            }
        }
        v.check(.pause, c.pause, settings.maxTurnPause)
        if hasAccel {
            // The body was airborne during the run (a running step's flight): gait carries the head.
            v.check(.inFlight, lastFlightAt >= c.runStart ? lastFlight : 0, 0)
        }
        // A gesture shorter than always-on's (the single one a question allows) begins from rest; a run refused
        // that way at its second swing is not taken at its third either: it began while the head was busy.
        if c.swings < (isNod ? settings.alwaysOnNodHalfWaves : settings.alwaysOnShakeHalfWaves) {
            let rest = settings.singleGestureFromHeadRest ? Swift.min(c.restBefore, c.headRestBefore) : c.restBefore
            if c.watchedBefore >= settings.maxTurnPause && settings.singleGestureFromRest {
                v.check(.restBefore, rest, settings.maxTurnPause, atMost: false)
            }
        }
        if c.swings == 2 {
            v.check(.swingNotTooWide, c.largestAngle, settings.maxTwoSwingAngle)
            v.check(.swingBigEnough, c.largestAngle, settings.minTwoSwingAngle, atMost: false)
            // Positive rotation about the left axis tips the nose (x forward) down: the first swing's pitch must
            // be above zero.
            if isNod && headAxesKnown && !c.originUnseen {
                v.check(.noseDown, c.firstRotation.dot(left), .leastNonzeroMagnitude, atMost: false)
            }
        }
        return v.accepted
    }

    /// Reports a gesture unless the cooldown or a gesture of the other kind still going on forbids it (the
    /// caller has already marked the run as one gesture either way, so a refused run stays unreported).
    private mutating func report(_ event: GestureEvent, start: Double, swings: Int, at t: Double,
                                 otherOngoing: Bool) -> DetectedGesture? {
        if verdict != nil { verdict!.check(.cooldown, t - lastEvent, settings.cooldown, atMost: false) }
        guard t - lastEvent >= settings.cooldown else { return nil }
        lastEvent = t
        pendingFlick = .none
        return DetectedGesture(event: event, start: start, swings: swings)
    }

    /// A judged run as the gesture it is, with its peak rate and widest swing, unless `report` forbids it.
    private mutating func report(_ event: GestureEvent, _ c: Completion, at t: Double, otherOngoing: Bool) -> DetectedGesture? {
        guard var e = report(event, start: c.runStart, swings: c.swings, at: t, otherOngoing: otherOngoing) else { return nil }
        e.peakRate = c.peak
        e.largestAngle = c.largestAngle
        return e
    }

    // MARK: Flicks

    /// The flick a finished half-wave would be, if it is quick enough, the first of its run, and its
    /// direction can be named.
    private func flickCandidate(_ w: HalfWave, onShakeAxis: Bool, up: Vector3) -> GestureEvent? {
        guard w.peakRate >= settings.flickRate, w.duration <= settings.maxHalfWaveDuration,
              w.peakRate >= settings.dominance * w.otherChange, w.runLength <= 1 else { return nil }
        let axis = w.axis
        if onShakeAxis {
            // Positive rotation about up is counter-clockwise seen from above: the face turns left.
            return axis.dot(up) > 0 ? .left : .right
        }
        // Up/down needs the head's left axis (from the mount), made horizontal.
        let left = horizontalLeft(up: up)
        guard left.length > 0.5 else { return nil }   // head lying on its side: no "up" to name
        let pitch = axis.dot(left)
        guard abs(pitch) >= cos(Double.pi / 4) else { return nil }  // mostly roll: not up or down
        // Positive rotation about left tips the nose (x forward) down.
        return pitch > 0 ? .down : .up
    }

    private mutating func resolvePendingFlick(at t: Double) -> DetectedGesture? {
        guard case let .waiting(event, start, due, onShakeAxis, axis) = pendingFlick, t >= due else { return nil }
        pendingFlick = .none
        // An opposite swing already done, or under way and brisk enough to be a swing of a gesture: the
        // movement is turning into a nod or shake, so it is not a flick.
        let tracker = onShakeAxis ? shake : nod
        if tracker.runLength >= 2 || tracker.isReported { return nil }
        if tracker.isActive && tracker.activeAxis.dot(axis) < 0 && tracker.activePeak >= settings.flickReturnRate {
            return nil
        }
        guard t - lastEvent >= settings.cooldown else { return nil }
        lastEvent = t
        return DetectedGesture(event: event, start: start, swings: 1)
    }
}
