import Tracking
import Formats
import EventStream
import Service
import SimulatedRuns

/// `headtrack run --simulated`: the production loop on the simulated board, paced by the real clock (so
/// real-time mode and wake-up lateness mean something) or as fast as possible with the bus time modelled.
enum SimulatedRunMode {
    static func run(config: Config, readout: ImuReadout, speed: Double, duration: Double?, quiet: Bool,
                    realtime: RealtimeMode?, socket: String?) throws -> Int32 {
        guard speed == 0 || speed == 1 else {
            throw CommandError("--speed must be 1 (real time) or 0 (as fast as possible) for run --simulated", status: 2)
        }
        var options = SimulatedLoopOptions()
        options.config = config
        options.readout = readout
        let seconds = duration ?? options.script.duration + 1
        Console.out("headtrack: simulated MPU-9250 + AK8963, \(readout.rawValue) readout at \(fixed(config.rates.imuHz, 0)) Hz, "
            + "\(fixed(seconds, 1)) s " + (speed == 0 ? "as fast as possible (I²C time at 400 kHz)" : "in real time"))
        // The simulated board is always an MPU-9250 with its AK8963 (SimulatedBoard).
        let stream = try StreamSetup.open(explicit: socket, config: config, byDefault: false,
                                          hello: StreamHello(imu: "MPU-9250 (simulated)", magnetometer: "AK8963",
                                                             rates: config.rates, stateHz: config.streamStateHz))
        defer { stream?.stop() }
        let observer: (LoopEvent, Pipeline) -> Void = { event, pipeline in
            stream?.handle(event, pipeline)
            switch event {
            case let .gesture(t, e): if !quiet { Console.out("t=\(fixed(t, 2))s gesture: \(e.rawValue)") }
            case let .fault(t, error): Console.err("t=\(fixed(t, 2))s fault: \(error)")
            default: break
            }
        }
        let thread = LoopThread(realtime: realtime)
        let report: SimulatedLoopReport
        do {
            report = speed == 0
                ? try SimulatedLoop.runFullSpeed(options, duration: seconds, stopSignals: true, thread: thread, say: Console.say,
                                                 observer: observer)
                : try SimulatedLoop.runPaced(options, duration: seconds, stopSignals: true, thread: thread, say: Console.say,
                                             observer: observer)
        } catch { throw CommandError(error.description) }
        Console.out("headtrack: stopped; \(report.imuSamples) IMU samples in \(fixed(report.simulatedSeconds, 2)) s simulated "
            + "(\(fixed(report.realSeconds, 2)) s real); \(report.gestures) gestures; FIFO overflows \(report.fifoOverflows); "
            + report.faults.summary)
        if let s = stream { Console.out("  " + StreamSetup.summary(s)) }
        if !quiet { for line in report.timing.summaryLines { Console.out("  " + line) } }
        return 0
    }
}
