import Geometry
import Gestures
import Tracking
import Formats
import Sensors
import Simulation
import Cohorts

/// `eval gestures --cohort N`: the detector on a seeded synthetic cohort of wearers and devices
/// (`GestureCohort`), scored per gesture kind and per distractor kind.
public struct GestureCohortEvaluation: Sendable {
    /// Score of one kind over all wearers.
    public struct KindScore: Sendable, Equatable {
        public var kind: CohortKind
        public var trials = 0
        /// Gesture trials: the gesture found (a detection of its label in [start − 0.3 s, end + 1 s]).
        public var hits = 0
        /// Nod/shake events inside the gesture's window (of either label): LED flashes for the gesture.
        public var flashes = 0
        /// Events of the other label inside the gesture's window.
        public var confusions = 0
        /// Nod/shake events outside any gesture window (all of them, for a distractor).
        public var falseEvents = 0
        public var minutes = 0.0
        /// First hit time minus the completing swing's peak (s), one per hit.
        public var latencies: [Double] = []

        public var recall: Double? { kind.isGesture && trials > 0 ? Double(hits) / Double(trials) : nil }
        public var falsePerMinute: Double? { minutes > 0 ? Double(falseEvents) / minutes : nil }
        public var flashesPerGesture: Double? { hits > 0 ? Double(flashes) / Double(hits) : nil }
        public var medianLatency: Double? { percentile(latencies, 0.5) }
        public var p90Latency: Double? { percentile(latencies, 0.9) }
    }

    public var cohort: GestureCohort
    public var recognizer: RecognizerUnderTest
    /// Whether the detector is told each wearer's mount (true: a configured headset). False scores it as a
    /// headset without a `mount`: the nod axis is then any horizontal one, so roll cannot be told from pitch.
    public var mountKnown = true

    public init(cohort: GestureCohort, recognizer: RecognizerUnderTest = RecognizerUnderTest()) {
        self.cohort = cohort
        self.recognizer = recognizer
    }

    /// Runs every wearer through every kind (or the kinds given); scores in `CohortKind` order. `progress` is
    /// told each kind as it begins (a cohort of 200 takes about a minute).
    public func run(kinds: [CohortKind] = CohortKind.allCases,
                    progress: (CohortKind) -> Void = { _ in }) -> [KindScore] {
        kinds.map { kind in
            progress(kind)
            var s = KindScore(kind: kind)
            for w in 0..<cohort.wearers { score(cohort.trial(wearer: w, kind: kind), into: &s) }
            return s
        }
    }

    /// The detections of one trial, through the product's path (mount → attitude filter → recognizer).
    public func detections(in trial: CohortTrial) -> [GestureDetection] {
        var records: [TraceRecord] = []
        records.reserveCapacity(trial.t.count)
        for i in trial.t.indices { records.append(TraceRecord(t: trial.t[i], accel: trial.accel[i], gyro: trial.gyro[i])) }
        let trace = Trace(metadata: ["rate_hz": "\(trial.rateHz)"], records: records)
        // A headset configured without a mount runs with none: the sensor's own axes, head axes unknown. The
        // classic recipe has no such rule and always gets the mount.
        let mount = mountKnown || recognizer.detector == .classic ? trial.mount : nil
        return recognizer.detections(in: trace, mount: mount)
    }

    func score(_ trial: CohortTrial, into s: inout KindScore) {
        let found = detections(in: trial).filter { $0.event == .nod || $0.event == .shake }
        s.trials += 1
        s.minutes += trial.duration / 60
        guard let g = trial.gesture else { s.falseEvents += found.count; return }
        let window = (g.start - GestureScore.earlySlack)...(g.end + GestureScore.lateSlack)
        let inside = found.filter { window.contains($0.t) }
        s.falseEvents += found.count - inside.count
        s.flashes += inside.count
        s.confusions += inside.filter { $0.event.rawValue != g.label }.count
        if let hit = inside.first(where: { $0.event.rawValue == g.label }) {
            s.hits += 1
            s.latencies.append(hit.t - g.completingPeak)
        }
    }

    /// One line saying what was run.
    public var description: String {
        let detector = recognizer.detector
        return "cohort of \(cohort.wearers) wearers (seed \(cohort.seed)\(cohort.devices == .earbud ? ", earbud devices" : "")), detector \(detector.rawValue)"
            + (mountKnown || detector == .classic ? "" : ", no mount given")
            + (detector == .classic ? ", \(fixed(recognizer.classicSettings.thresholdPerFrame, 3)) rad per frame" : "")
    }
}
