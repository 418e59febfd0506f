import Geometry
import Gestures

/// One step of a replay, reported to the caller (for event files, attitude files and plots) with the
/// pipeline beside it, as the loop reports its `LoopEvent`s: a pipeline inside the event would be copied
/// (some 11 kB) into every sample's event.
public enum ReplayEvent: Sendable, Equatable {
    case sample(index: Int, t: Double)
    case gesture(ReportedGesture)
    case display(t: Double, leds: UInt64)
}

/// Runs the pipeline over a recorded trace as fast as it can, with the trace's own timestamps, and display
/// ticks at `displayHz` of trace time.
public enum Replay {
    /// A stretch without samples longer than this is a pause in the recording (or a corrupt timestamp): the
    /// display ticks jump over it instead of ticking through it. A gap of 1e7 s used to mean 6e8 ticks, each
    /// drawn into the plot. One second is far longer than any real dropout at the supported rates (≥ 10 Hz).
    public static let maxGap = 1.0

    /// `questionPending` puts the pipeline in answer mode while it says a question is pending, asked at the
    /// start and after each display tick's observer, as the loop asks its stream: a stream's clients
    /// (`replay --stream`), or `{ true }` for a question pending throughout (`replay --ask`: each gesture
    /// answers it and another is pending at once).
    public static func run<R>(_ trace: Trace, settings: TrackingPipeline<R>.Settings, displayHz: Double = 60,
                              questionPending: () -> Bool = { false },
                              observer: (ReplayEvent, TrackingPipeline<R>) -> Void) {
        var pipeline = TrackingPipeline<R>(settings: settings)
        pipeline.listening = questionPending()
        var window = trace.records.first?.window
        // The config allows 10...240 Hz; a zero or negative rate would tick forever.
        let displayPeriod = 1 / Swift.max(displayHz, 1)
        // Tick k is at origin + k × period: computed from an integer count, so it advances even where
        // repeatedly adding the period to a large t would round back to the same value.
        var origin = trace.records.first?.t ?? 0
        var tick = 0
        var nextDisplay = origin
        for (i, r) in trace.records.enumerated() {
            if r.t - nextDisplay > maxGap {
                // Skip the gap: restart the display clock at this sample.
                origin = r.t
                tick = 0
                nextDisplay = origin
            }
            if r.window != window {
                pipeline.reset()
                window = r.window
            }
            if let g = pipeline.processIMU(t: r.t, accel: r.accel, gyro: r.gyro, mag: r.mag) {
                observer(.gesture(g), pipeline)
            }
            observer(.sample(index: i, t: r.t), pipeline)
            while r.t >= nextDisplay {
                let leds = pipeline.displayTick(t: nextDisplay, dt: displayPeriod, fault: false)
                observer(.display(t: nextDisplay, leds: leds), pipeline)
                pipeline.listening = questionPending()
                tick += 1
                nextDisplay = origin + Double(tick) * displayPeriod
            }
        }
    }
}
