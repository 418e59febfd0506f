import Geometry
import Gestures

/// One step of a replay, reported to the caller (for event files, attitude files and plots).
public enum ReplayEvent {
    case sample(index: Int, t: Double, pipeline: Pipeline)
    case gesture(t: Double, event: GestureEvent)
    case display(t: Double, leds: UInt64, pipeline: Pipeline)
}

/// Runs the pipeline over a recorded trace as fast as it can, with the trace's own timestamps, and display
/// ticks at `displayHz` of trace time.
public enum Replay {
    public static func run(_ trace: Trace, settings: Pipeline.Settings, displayHz: Double = 60,
                           observer: (ReplayEvent) -> Void) {
        var pipeline = Pipeline(settings: settings)
        var window = trace.records.first?.window
        let displayPeriod = 1 / displayHz
        var nextDisplay = trace.records.first?.t ?? 0
        for (i, r) in trace.records.enumerated() {
            if r.window != window {
                pipeline.reset()
                window = r.window
            }
            if let e = pipeline.processIMU(t: r.t, accel: r.accel, gyro: r.gyro, mag: r.mag) {
                observer(.gesture(t: r.t, event: e))
            }
            observer(.sample(index: i, t: r.t, pipeline: pipeline))
            while r.t >= nextDisplay {
                let leds = pipeline.displayTick(t: nextDisplay, dt: displayPeriod, fault: false)
                observer(.display(t: nextDisplay, leds: leds, pipeline: pipeline))
                nextDisplay += displayPeriod
            }
        }
    }
}
