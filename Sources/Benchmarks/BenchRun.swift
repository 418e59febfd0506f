import LibC
import Formats
import Service
import Sensors

/// Everything `headtrack bench` measures, in one run of under a minute.
public struct Bench {
    public struct Options: Sendable {
        /// Recording for the stage costs (default: BROAD trial 21 from ../shared, else synthetic).
        public var tracePath: String? = nil
        /// Seconds of each of the three loops at 1 kHz in the lateness comparison (half that at 200 Hz). The
        /// p99 rests on the slowest 1 %: 8000 wake-ups give it 80, enough for a ratio near ±20 % on a noisy VM.
        public var latenessSeconds = 8.0
        /// Passes over the recording per stage; the median is reported.
        public var runs = 9
        /// Real-time mode for the benchmark thread (applies to the Swift and the C loop alike).
        public var realtime: RealtimeMode? = nil
        /// Also start `headtrack run --simulated` / `demo` as children to measure their peak memory.
        public var measureChildren = true
        /// Only the stage costs (for scripts that compare them with another implementation, and for
        /// instruction counts under callgrind, where the lateness loops would only add minutes).
        public var stagesOnly = false
        public init() {}
    }

    public struct Results: Sendable {
        public var machine = ""
        public var traceSource = ""
        public var traceIsSynthetic = false
        public var stages = StageCosts()
        public var lateness: [LatenessComparison] = []
        public var allocations: [(readout: ImuReadout, count: AllocationCount)] = []
        public var sustained: [SustainedRate] = []
        public var nodLatency: [NodLatency] = []
        public var childMemory: [PeakMemory] = []
        public var benchPeakKiB = 0
        public var realtime: String? = nil
        public var seconds = 0.0
        /// Only `stages` was measured (`Options.stagesOnly`).
        public var stagesOnly = false
    }

    /// Runs every part; `progress` gets one line per part (for stderr, so --json output stays clean).
    public static func run(_ options: Options, progress: (String) -> Void) throws -> Results {
        let start = StageClock.now()
        var r = Results()
        r.machine = machineDescription()
        // As `run` does: both the loop and the C reference run in this thread, so both get it.
        RealtimeMode.tightenTimerSlack()
        if let mode = options.realtime { r.realtime = mode.enter().summary }

        progress("loading the recording")
        let trace = try BenchTrace.load(path: options.tracePath)
        r.traceSource = trace.source
        r.traceIsSynthetic = trace.isSynthetic

        progress("stage costs over \(trace.trace.records.count) samples, \(options.runs) passes each")
        r.stages = StageCosts.measure(trace, runs: options.runs)
        if options.stagesOnly {
            r.stagesOnly = true
            if options.realtime != nil { RealtimeMode.leaveFIFO() }
            r.benchPeakKiB = PeakMemory.ownPeakKiB
            r.seconds = Double(StageClock.now() - start) * 1e-9
            return r
        }

        progress("heap allocations in steady state")
        for readout in ImuReadout.allCases {
            r.allocations.append((readout, try AllocationCount.measure(trace: trace, readout: readout)))
        }

        progress("1 kHz for 60 s of simulated time at full speed (bus time modelled at 400 kHz)")
        for readout in ImuReadout.allCases { r.sustained.append(try SustainedRate.measure(readout: readout)) }

        progress("end-to-end latency, end of nod → nod LED (simulated)")
        for readout in ImuReadout.allCases { r.nodLatency.append(try NodLatency.measure(readout: readout)) }

        for (rate, seconds) in [(1000.0, options.latenessSeconds), (200.0, options.latenessSeconds / 2)] {
            progress("wake-up lateness at \(Int(rate)) Hz: \(fixed(seconds, 1)) s each of the C reference, the Swift scheduler and the whole loop")
            r.lateness.append(try LatenessComparison.measure(rateHz: rate, seconds: seconds))
        }

        if options.measureChildren {
            progress("peak memory of `run --simulated` and `demo`")
            r.childMemory.append(PeakMemory.measure(["run", "--simulated", "--speed", "0", "--duration", "60",
                                                     "--imu-hz", "1000", "--quiet"]))
            r.childMemory.append(PeakMemory.measure(["demo", "--speed", "0"]))
        }
        if options.realtime != nil { RealtimeMode.leaveFIFO() }
        r.benchPeakKiB = PeakMemory.ownPeakKiB
        r.seconds = Double(StageClock.now() - start) * 1e-9
        return r
    }

    static func machineDescription() -> String {
        var cpu = "unknown CPU"
        if let text = try? FileIO.readText("/proc/cpuinfo"),
           let line = text.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
           let colon = line.firstIndex(of: ":") {
            cpu = String(line[line.index(after: colon)...].drop { $0 == " " })
        }
        var u = utsname()
        uname(&u)
        let machine = withUnsafeBytes(of: &u.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let release = withUnsafeBytes(of: &u.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return "\(machine), \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) CPUs (\(cpu)), Linux \(release)"
    }
}
