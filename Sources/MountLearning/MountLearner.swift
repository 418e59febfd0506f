import LibC
import Geometry

/// Learns how the sensor sits on the head (the mount) from what only a head does: gravity, while the head
/// rests looking straight ahead, says which way is up; nodding turns the head about its left-right axis, and a
/// nod begins chin-down, which says which way along that axis is left; forward is left × up. Pure: raw
/// sensor-frame samples with their time in, a `Mount` (or why there is none) out; nothing is stored per sample.
///
/// ## The rule that tells a nod from a tilt
/// A tilt toward a shoulder also turns the head about a horizontal axis (the forward one), so the axis alone
/// cannot tell them apart. What differs is the movement: a nod is a rhythm, swings that reverse without a hold
/// and alternate about one axis, and "nod a few times" is one run of them; a tilt goes out, holds at the
/// shoulder (0–1.5 s in the gesture model), comes back, and the next one follows seconds later, to either side.
/// So a mount is learned only from one series of at least `minimumNods` cycles (each swing ≤ 0.7 s, pauses
/// ≤ 0.7 s, consecutive swings opposite within 45°, every axis within 20° of the series' axis) about an axis
/// within `horizontalTolerance` of horizontal (which refuses a shake). A rhythm of quick tilts to one side and
/// back would pass: the guided step asks for nods.
public struct MountLearner: Sendable {
    public struct Settings: Sendable, Equatable {
        var still = StillStretches.Settings()
        var rhythm = NodRhythm.Settings()
        /// Swings start above this rate (rad/s): the gesture detector's activity threshold, 11 °/s.
        public var activeRate = HeadGestureFacts.activeRate
        /// Cycles one series must hold: 3 (the issue's rule: never from fewer).
        public var minimumNods = 3
        /// The nods' axis must lie within this of horizontal (rad): 20°, above a nod's yaw cross-talk (≤ 10 %,
        /// 6°) plus the head's roll at rest (habitually ±5°); a shake's axis is vertical.
        public var horizontalTolerance = 20 * Units.radiansPerDegree
        /// Within this of an axis form (rad), the axis form is the result: 25°. How a headset sits varies by
        /// that much from one wearing to the next (the shared headphone nods measure 20° (st26) and 9° (st30)
        /// from their board's axes), finer is today's wearing rather than the board's mount (`eval gestures` on
        /// the shared recordings finds 79/80 bouts with either measured mount, 80/80 with the axis form), and
        /// the detector wants a swing within 26.6° of its head axis (its dominance of 2), which the axis form
        /// then still gives.
        public var snapTolerance = 25 * Units.radiansPerDegree
        /// Samples further apart than this (s) are a gap: movement in progress is forgotten.
        public var longestGap = 0.5
        public init() {}
    }

    /// Where up came from.
    public enum UpSource: Sendable, Equatable {
        /// Gravity while the head held still (seconds of stillness).
        case still(seconds: Double)
        /// The mean specific force over the nods: the recording never holds still.
        case meanOverNods
    }

    /// Where the sense of left came from (which way is forward).
    public enum SenseSource: Sendable, Equatable {
        /// The first swing of a nod that began from rest is chin-down.
        case firstSwingFromRest
        /// No nod began from rest; the caller's stated mount chose between the two senses (a trace's frame line).
        case statedMount
    }

    public struct Learned: Sendable, Equatable {
        /// The head's axes as measured.
        public var measured: Mount
        /// What to use: the nearest axis form when within `snapTolerance` of it, else `measured`.
        public var mount: Mount
        public var nearestAxisForm: Mount
        /// Angle between `measured` and `nearestAxisForm` (rad).
        public var offAxisForm: Double
        /// Cycles in the series the left axis came from.
        public var nods: Int
        public var upSource: UpSource
        public var senseSource: SenseSource
        /// How far the nods' axis was from horizontal (rad).
        public var offHorizontal: Double
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// Up could not be measured: no still stretch, and no nods to average over.
        case noStillStretch
        /// No series of enough nods; `most` is the largest number of cycles seen in one series.
        case tooFewNods(most: Int, needed: Int)
        /// The rhythm seen turns about an axis this far (rad) from horizontal: a shake, not a nod.
        case notHorizontal(Double)
        /// No nod began from rest, so forward cannot be told from backward.
        case senseUnknown
        /// Nods that began from rest began both ways (chin-down and chin-up).
        case senseDisagrees
        /// Up and the nods' axis are (nearly) parallel.
        case degenerate

        public var description: String {
            switch self {
            case .noStillStretch:
                return "no still stretch to find up: keep the head still, looking straight ahead, for a few seconds"
            case let .tooFewNods(most, needed):
                return "only \(most) nod\(most == 1 ? "" : "s") in a row seen, \(needed) needed: nod \(needed) or more times in a row, "
                    + "chin down and back up, without stopping at the bottom (a tilt toward a shoulder, held and brought back, is not one)"
            case let .notHorizontal(angle):
                return "the head turned back and forth about an axis \(Int((angle * Units.degreesPerRadian).rounded()))° from horizontal: "
                    + "that is a shake; nod instead (chin down and back up)"
            case .senseUnknown:
                return "no nod began from rest, so forward cannot be told from backward: keep still first, then nod chin down first"
            case .senseDisagrees:
                return "the nods began chin-down and chin-up: start every nod chin down"
            case .degenerate:
                return "the nods' axis is almost vertical: nod, do not shake"
            }
        }
    }

    public let settings: Settings
    private var still: StillStretches
    private var swings: SwingTracker
    private var rhythm: NodRhythm
    private var lastT = -Double.infinity

    public init(settings: Settings = Settings()) {
        self.settings = settings
        still = StillStretches(settings: settings.still)
        swings = SwingTracker(activeRate: settings.activeRate)
        rhythm = NodRhythm(settings: settings.rhythm)
    }

    /// Seconds of stillness so far.
    public var stillSeconds: Double { still.seconds }
    /// Gravity's direction over the still stretches so far (unit, sensor frame).
    public var up: Vector3? { still.up }
    /// The most cycles of one series so far, the one in progress included.
    public var mostNods: Int { rhythm.all.reduce(0) { Swift.max($0, $1.cycles) } }
    /// Cycles of the series in progress (cheap: for a progress display per sample).
    public var nodsInProgress: Int { rhythm.current?.cycles ?? 0 }
    /// Series completed so far, and the latest (for watching evidence arrive while worn).
    public var seriesCompleted: Int { rhythm.completed }
    public var latestSeries: (axis: Vector3, cycles: Int, fromRest: Bool, start: Double, meanAccel: Vector3)? {
        rhythm.latest.map { ($0.axis, $0.cycles, $0.fromRest, $0.start, $0.meanAccel) }
    }
    /// The latest still stretch: its gravity direction (unit, sensor frame), length (s) and when it ended
    /// (or was last still, while it goes on).
    public var latestStill: (up: Vector3, seconds: Double, end: Double) { (still.latestUp, still.latestSeconds, still.latestStillEnd) }

    /// One raw sample in the sensor frame (rad/s, m/s²) at time `t` (s).
    public mutating func add(t: Double, gyro: Vector3, accel: Vector3) {
        guard gyro.isFinite, accel.isFinite, t.isFinite else { return }
        let dt = t - lastT
        lastT = t
        if !(dt >= 0 && dt <= settings.longestGap) {
            // The first sample, or a gap: nothing in progress survives it.
            swings.interrupt()
            rhythm.close()
            still.interrupt()
            still.add(t: t, gyro: gyro, accel: accel)
            return
        }
        still.add(t: t, gyro: gyro, accel: accel)
        rhythm.addAccel(accel)
        if let s = swings.add(t: t, dt: dt, rate: gyro - still.bias) { rhythm.add(s) }
        rhythm.tick(t: t, swingSince: swings.inProgressSince)
    }

    /// The mount learned so far, or why there is none. `statedLeft` (a trace's stated mount's left axis)
    /// chooses the sense only when no nod began from rest.
    public func result(statedLeft: Vector3? = nil) -> Result<Learned, Failure> {
        let series = rhythm.all
        let stillUp = still.seconds >= Double(settings.still.minimumBlocks) * settings.still.blockSeconds ? still.up : nil
        func upFor(_ s: SwingSeries) -> Vector3? { stillUp ?? (s.meanAccel.length > 0 ? s.meanAccel.normalized : nil) }
        func offHorizontal(_ s: SwingSeries) -> Double? {
            guard let up = upFor(s) else { return nil }
            return asin(Swift.min(1, abs(s.axis.dot(up))))
        }
        let enough = series.filter { $0.cycles >= settings.minimumNods }
        let level = enough.filter { (offHorizontal($0) ?? .infinity) <= settings.horizontalTolerance }
        guard let best = level.max(by: { $0.cycles < $1.cycles }) else {
            if stillUp == nil && enough.isEmpty && series.isEmpty { return .failure(.noStillStretch) }
            if let shake = enough.compactMap(offHorizontal).min() { return .failure(.notHorizontal(shake)) }
            let most = series.filter { (offHorizontal($0) ?? 0) <= settings.horizontalTolerance }.reduce(0) { Swift.max($0, $1.cycles) }
            return .failure(.tooFewNods(most: most, needed: settings.minimumNods))
        }
        guard let up = upFor(best) else { return .failure(.noStillStretch) }
        // The sense: a series that began from rest began chin-down, i.e. its first swing turned about +left.
        let alike = series.filter { $0.fromRest && abs($0.axis.dot(best.axis)) >= cos(settings.rhythm.consistency) }
        let votes = alike.map { $0.axis.dot(best.axis) > 0 }
        var left = best.axis
        let sense: SenseSource
        if best.fromRest {
            sense = .firstSwingFromRest
        } else if let first = votes.first {
            guard votes.allSatisfy({ $0 == first }) else { return .failure(.senseDisagrees) }
            if !first { left = -left }
            sense = .firstSwingFromRest
        } else if let stated = statedLeft, abs(stated.normalized.dot(left)) >= cos(45 * Units.radiansPerDegree) {
            if stated.dot(left) < 0 { left = -left }
            sense = .statedMount
        } else {
            return .failure(.senseUnknown)
        }
        if best.fromRest && votes.contains(false) { return .failure(.senseDisagrees) }
        guard let measured = Mount(up: up, left: left) else { return .failure(.degenerate) }
        let nearest = measured.nearestAxisForm
        return .success(Learned(measured: measured, mount: nearest.angle <= settings.snapTolerance ? nearest.mount : measured,
                                nearestAxisForm: nearest.mount, offAxisForm: nearest.angle, nods: best.cycles,
                                upSource: stillUp != nil ? .still(seconds: still.seconds) : .meanOverNods,
                                senseSource: sense, offHorizontal: offHorizontal(best) ?? 0))
    }
}
