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
        Replay.run(trace, settings: settings, questionPending: { listening }) { event, pipeline in
            if case let .gesture(t, e) = event {
                let d = pipeline.lastDetection
                var found = GestureDetection(t: t, event: e)
                if let d, d.event == e {
                    found.swings = d.swings
                    found.peakRate = d.peakRate
                    found.largestAngle = d.largestAngle
                }
                out.append(found)
            }
        }
        return out
    }
}
