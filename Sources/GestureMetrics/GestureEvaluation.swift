import Geometry
import Gestures
import Tracking
import Formats
import Sensors

public struct EvaluationError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// `eval gestures`: replays recordings with labelled truth through a gesture recognizer and scores them.
public struct GestureEvaluation: Sendable {
    public enum Detector: String, Sendable, CaseIterable {
        /// `GestureDetector`, the product's detector.
        case `default`
        /// `ClassicGestureDetector`, the per-frame Δpitch/Δyaw recipe, as the baseline.
        case classic
    }

    public struct FileResult: Sendable {
        public var path: String
        public var score: GestureScore
        public var detections: [GestureDetection]
        /// The mount the trace's `frame` line states ("worn: X back, Y up, Z left"), if it states one.
        public var wornMount: Mount? = nil
        /// The mount the replay used (nil: none).
        public var mountUsed: Mount? = nil
        /// What the wearer was doing, from the file name: the words after its last part with a digit in it
        /// (`cg1A_u01_e003_typing` → `typing`, `box_s1_pull_back` → `pull_back`).
        public var activity: String {
            let stem = name.hasSuffix(".csv") ? String(name.dropLast(4)) : name
            let parts = stem.split(separator: "_")
            guard let last = parts.lastIndex(where: { $0.contains(where: \.isNumber) }), last + 1 < parts.count else {
                return stem
            }
            return parts[(last + 1)...].joined(separator: "_")
        }
        public var name: String { path.split(separator: "/").last.map(String.init) ?? path }
    }

    /// Sensor-to-head mount; nil means none given (sensor axes taken as head axes).
    public var mount: Mount?
    /// Each trace's own `# mount:` line instead of `mount` (none where it says `unknown` or has none): the
    /// shared daily-life recordings carry one per participant.
    public var mountFromTrace = false
    public var recognizer: RecognizerUnderTest

    public init(mount: Mount? = nil, recognizer: RecognizerUnderTest = RecognizerUnderTest()) {
        self.mount = mount
        self.recognizer = recognizer
    }

    /// Scores one trace against `NAME.truth.json` beside it.
    public func evaluate(tracePath: String) throws(EvaluationError) -> FileResult {
        let trace: Trace
        do { trace = try TraceFile.read(path: tracePath) } catch { throw EvaluationError(error.description) }
        let truth: GestureTruth
        do { truth = try GestureTruth.read(path: GestureTruth.path(forTrace: tracePath)) } catch {
            throw EvaluationError(error.description)
        }
        let mountUsed = mountFromTrace ? trace.statedMount : mount
        let found = recognizer.detections(in: trace, mount: mountUsed)
        var result = FileResult(path: tracePath, score: GestureScore(detections: found, truth: truth.bouts, duration: duration(of: trace)),
                                detections: found, wornMount: trace.wornMount)
        result.mountUsed = mountUsed
        return result
    }

    public func evaluate(tracePaths: [String]) throws(EvaluationError) -> [FileResult] {
        var results: [FileResult] = []
        for p in tracePaths { results.append(try evaluate(tracePath: p)) }
        return results
    }

    public func detections(in trace: Trace) -> [GestureDetection] {
        recognizer.detections(in: trace, mount: mount)
    }

    private func duration(of trace: Trace) -> Double {
        guard let first = trace.records.first, let last = trace.records.last else { return 0 }
        return last.t - first.t + (trace.rateHz.map { 1 / $0 } ?? 0)
    }

    /// One line saying what was run.
    public var description: String {
        let (detector, settings, classicSettings) = (recognizer.detector, recognizer.settings, recognizer.classicSettings)
        var s = "detector \(detector.rawValue), mount \(mountFromTrace ? "each trace's own" : mount.map { $0.argument } ?? "none")"
        if detector == .default {
            s += recognizer.listening ? ", answer mode (a question pending throughout)"
                : settings.singleGesturesAlways ? ", always-on with single gestures"
                : ", always-on (nod \(settings.alwaysOnNodHalfWaves) swings, shake \(settings.alwaysOnShakeHalfWaves))"
        }
        if detector == .default {
            s += settings.flicks ? ", flicks on (\(fixed(settings.flickRate, 1)) rad/s)" : ", flicks off"
            s += ", cooldown \(fixed(settings.cooldown, 2)) s"
        } else {
            s += ", \(fixed(classicSettings.thresholdPerFrame, 3)) rad per frame, cooldown \(fixed(classicSettings.cooldown, 2)) s"
        }
        return s
    }
}
