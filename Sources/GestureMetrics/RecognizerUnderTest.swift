import Geometry
import Gestures
import Tracking

/// The recognizer an evaluation scores, and the settings of each kind: the command line's presets and
/// cooldown set both, and `detector` says which one runs (`eval gestures --cohort` runs each in turn).
public struct RecognizerUnderTest: Sendable {
    public var detector: GestureEvaluation.Detector
    public var settings: GestureDetector.Settings
    public var classicSettings: ClassicGestureDetector.Settings
    /// Run as if a question were pending throughout (answer mode): single gestures count.
    public var listening = false

    public init(detector: GestureEvaluation.Detector = .default, settings: GestureDetector.Settings = .default,
                classicSettings: ClassicGestureDetector.Settings = .default, listening: Bool = false) {
        self.detector = detector
        self.settings = settings
        self.classicSettings = classicSettings
        self.listening = listening
    }

    /// The same settings with `detector` running (the cohort runs each detector in turn).
    public func running(_ detector: GestureEvaluation.Detector) -> RecognizerUnderTest {
        var r = self
        r.detector = detector
        return r
    }

    /// The detections of `trace` through the product's replay, with `mount` (nil: none given).
    func detections(in trace: Trace, mount: Mount?) -> [GestureDetection] {
        switch detector {
        case .default:
            var s = Pipeline.Settings()
            s.mount = mount
            s.gestures = settings
            return GestureReplay.detections(in: trace, settings: s, listening: listening)
        case .classic:
            var s = TrackingPipeline<ClassicGestureDetector>.Settings()
            s.mount = mount
            s.gestures = classicSettings
            return GestureReplay.detections(in: trace, settings: s)
        }
    }
}
