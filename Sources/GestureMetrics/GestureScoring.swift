import Gestures
import Formats

/// A gesture reported at time `t` (s).
public struct GestureDetection: Sendable, Equatable {
    public var t: Double
    public var event: GestureEvent
    /// Swings the detector had seen when it reported the gesture (0 where the recognizer does not say).
    public var swings: Int
    /// The detector's measure of the gesture: completing swing's peak rate (rad/s), widest swing (rad).
    public var peakRate = 0.0
    public var largestAngle = 0.0
    public init(t: Double, event: GestureEvent, swings: Int = 0) { self.t = t; self.event = event; self.swings = swings }
}

/// Detections scored against labelled bouts, by the rule used for the shared recordings:
/// a detection hits a bout of the same label when it lies in [start − 0.3 s, end + 1.0 s]; each bout counts
/// once; further detections inside a bout already hit are neither hits nor errors; every other nod or shake
/// is a false detection. A false detection inside the window of a bout of the other label is also counted
/// as a confusion (so confusions are a part of the false detections). Flicks (up/down/left/right) have no
/// truth labels in these recordings; they are counted on their own.
public struct GestureScore: Sendable, Equatable {
    public static let earlySlack = 0.3
    public static let lateSlack = 1.0

    public var bouts = 0
    public var hits = 0
    public var falseDetections = 0
    public var confusions = 0
    public var flicks = 0
    /// Nod/shake events inside the windows of the bouts that were found (LED flashes for them).
    public var boutEvents = 0
    /// Detection time minus bout start (s), one per hit bout.
    public var latencies: [Double] = []
    /// Length of the recordings (s), and of those without any labelled gesture, with their false detections.
    public var duration = 0.0
    public var quietDuration = 0.0
    public var quietFalseDetections = 0

    public init() {}

    public var misses: Int { bouts - hits }
    /// Events per found bout: 1 is one flash per gesture; nil without hits.
    public var eventsPerBout: Double? { hits > 0 ? Double(boutEvents) / Double(hits) : nil }
    /// Hits over bouts, nil without bouts.
    public var recall: Double? { bouts > 0 ? Double(hits) / Double(bouts) : nil }
    /// False detections per minute on recordings without gestures, nil when there are none.
    public var quietFalsePerMinute: Double? {
        quietDuration > 0 ? Double(quietFalseDetections) / (quietDuration / 60) : nil
    }
    public var medianLatency: Double? { percentile(latencies, 0.5) }
    public var p90Latency: Double? { percentile(latencies, 0.9) }

    /// Scores one recording.
    public init(detections: [GestureDetection], truth: [GestureBout], duration: Double) {
        self.init()
        bouts = truth.count
        self.duration = duration
        var hitTime = [Double?](repeating: nil, count: truth.count)
        func inWindow(_ b: GestureBout, _ t: Double) -> Bool {
            t >= b.start - GestureScore.earlySlack && t <= b.end + GestureScore.lateSlack
        }
        for d in detections.sorted(by: { $0.t < $1.t }) {
            guard d.event == .nod || d.event == .shake else { flicks += 1; continue }
            let matching = truth.indices.filter { truth[$0].label == d.event.rawValue && inWindow(truth[$0], d.t) }
            if let first = matching.first(where: { hitTime[$0] == nil }) {
                hitTime[first] = d.t
                boutEvents += 1
            } else if !matching.isEmpty {
                boutEvents += 1   // a repeat inside a bout already hit: not an error, but another flash
            } else {
                falseDetections += 1
                if truth.contains(where: { inWindow($0, d.t) }) { confusions += 1 }
            }
        }
        hits = hitTime.compactMap { $0 }.count
        latencies = truth.indices.compactMap { i in hitTime[i].map { $0 - truth[i].start } }
        if truth.isEmpty {
            quietDuration = duration
            quietFalseDetections = falseDetections
        }
    }

    /// Sums of several recordings (latencies pooled).
    public static func + (a: GestureScore, b: GestureScore) -> GestureScore {
        var s = a
        s.bouts += b.bouts
        s.hits += b.hits
        s.falseDetections += b.falseDetections
        s.confusions += b.confusions
        s.flicks += b.flicks
        s.boutEvents += b.boutEvents
        s.latencies += b.latencies
        s.duration += b.duration
        s.quietDuration += b.quietDuration
        s.quietFalseDetections += b.quietFalseDetections
        return s
    }
}

/// Percentile by linear interpolation between order statistics (q in [0, 1]); nil for no values.
public func percentile(_ values: [Double], _ q: Double) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let position = q * Double(sorted.count - 1)
    let lower = Int(position.rounded(.down))
    let upper = Swift.min(lower + 1, sorted.count - 1)
    let fraction = position - Double(lower)
    return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
}
