import Tracking
import Formats
/// A line the service says, for the command to print: `.out` to stdout, `.err` to stderr.
public enum ServiceLine: Equatable, Sendable {
    case out(String), err(String)
}

/// How a session prepares the loop thread before the loop: the timer slack down to 1 ns (the service and
/// the paced simulation, whose wake-up lateness is measured), and the real-time mode when one is asked for.
public struct LoopThread: Sendable {
    public var realtime: RealtimeMode?
    public init(realtime: RealtimeMode? = nil) { self.realtime = realtime }

    public func enter(say: (ServiceLine) -> Void) {
        RealtimeMode.tightenTimerSlack()
        if let line = RealtimeMode.enterLine(realtime) { say(line) }
    }
}

extension RealtimeMode {
    /// Enters `mode` (nil: nothing, no line) on the calling thread and says how it went: refusals as a
    /// warning on stderr, else the granted mode on stdout.
    public static func enterLine(_ mode: RealtimeMode?) -> ServiceLine? {
        guard let mode else { return nil }
        let outcome = mode.enter()
        return outcome.refusals.isEmpty ? .out("headtrack: " + outcome.summary) : .err("headtrack: warning: " + outcome.summary)
    }
}

extension TrackerSession {
    /// `run`'s service around a started session: systemd READY with `status`, the watchdog fed from the
    /// display stage (a loop that stops running stops feeding it), a fault summary every minute, the loop run
    /// as `run` does, and systemd STOPPING at the end, all through `notifier` (nil: not run by systemd), which
    /// the caller opened before the loop. `observer` sees every event after the service counted it.
    public mutating func serve(duration: Double?, thread: LoopThread, status: String, notifier: SystemdNotifier?,
                               say: (ServiceLine) -> Void, observer: (LoopEvent, Pipeline) -> Void) {
        notifier?.send("READY=1\nSTATUS=\(status)")
        var nextSummary = 60.0
        var samples = 0
        var faults = FaultCounters()  // kept from the events, for the minute summary while the loop runs
        var nextWatchdog = 0.0
        let watchdogInterval = SystemdNotify.watchdogInterval
        if let note = loop.readoutNote { say(.err("headtrack: note: " + note)) }
        run(duration: duration, thread: thread, say: say) { event, pipeline in
            switch event {
            case .imu:
                samples += 1
            case let .fault(_, error):
                faults.count(error)
            case .reinitialized:
                faults.chipResets += 1
            case let .display(t, _):
                if let w = watchdogInterval, t >= nextWatchdog {
                    nextWatchdog = t + w
                    notifier?.watchdog()
                }
                if t >= nextSummary {
                    nextSummary += 60
                    say(.out("t=\(fixed(t, 0))s summary: \(samples) IMU samples, \(faults.total) faults; \(faults.summary)"))
                }
            case .gesture:
                break
            }
            observer(event, pipeline)
        }
        notifier?.send("STOPPING=1")
    }

    /// The closing line of a run: samples, faults and, for the FIFO readout, what it lost.
    public var stoppedLine: String {
        "headtrack: stopped; \(loop.imuSamples) IMU samples; \(loop.faults.summary)"
            + (loop.readout == .fifo ? " fifo-overflows=\(loop.fifoOverflows) fifo-samples-lost=\(loop.fifoClock.samplesLost)" : "")
    }
}
