import Geometry
import Gestures
import Tracking

/// The gestures a recognizer reports over a recorded trace, through the product's own replay (`Replay.run`:
/// the pipeline that `run` and `replay` use, state afresh where the trace's `window` changes). A detection is
/// stamped with the time of the sample that completed it.
public enum GestureReplay {
    public static func detections<R>(in trace: Trace, settings: TrackingPipeline<R>.Settings,
                                     listening: Bool = false) -> [GestureDetection] {
        var out: [GestureDetection] = []
        Replay.run(trace, settings: settings, questionPending: { listening }) { event, _ in
            if case let .gesture(g) = event {
                var found = GestureDetection(t: g.t, event: g.event)
                found.swings = g.detection.swings
                found.peakRate = g.detection.peakRate
                found.largestAngle = g.detection.largestAngle
                out.append(found)
            }
        }
        return out
    }
}
