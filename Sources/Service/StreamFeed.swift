import EventStream
import Tracking

extension EventStream {
    /// The observer hook for `TrackerLoop.run`.
    public func handle(_ event: LoopEvent, _ pipeline: Pipeline) {
        switch event {
        case .imu: explain(pipeline.recognizer)
        case let .gesture(g): gesture(g, bouts: pipeline.bouts)
        case let .display(t, leds): display(t: t, leds: leds, pipeline: pipeline)
        case let .fault(t, error): fault(FaultKind(error), t: t)
        case let .reinitialized(t): fault(.chipReset, t: t)
        }
    }
}
