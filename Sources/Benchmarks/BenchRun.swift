import LibC
import Formats
import Hardware
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
        /// Every part, or one alone: the stage costs (for scripts that compare them with another
        /// implementation, and for instruction counts under callgrind, where the lateness loops would only add
        /// minutes), or the allocation counts (what `scripts/allocation-guard.sh` checks in CI).
        public var parts = Parts.all
        public init() {}
    }

    public enum Parts: Sendable, Equatable { case all, stagesOnly, allocationsOnly }

    public struct Results: Sendable {
        public var machine = ""
        public var traceSource = ""
        public var traceIsSynthetic = false
        public var stages = StageCosts()
        public var lateness: [LatenessComparison] = []
        /// Steady state: the second pass of the allocation counts.
        public var allocations: [(readout: ImuReadout, count: AllocationCount)] = []
        /// The first pass, in a process that had run nothing yet.
        public var firstPassAllocations: [(readout: ImuReadout, count: AllocationCount)] = []
        public var streamAllocations: StreamAllocationCount? = nil
        public var sustained: [SustainedRate] = []
        public var nodLatency: [NodLatency] = []
        public var childMemory: [PeakMemory] = []
        public var benchPeakKiB = 0
        public var realtime: String? = nil
        public var seconds = 0.0
        /// What was measured (`Options.parts`).
        public var parts = Parts.all
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

        r.parts = options.parts
        // Allocations first, while the process is fresh: the first pass counts from the loop's first wake-up
        // and the replay's first sample, so it shows the one-time costs (the Swift runtime builds a type's
        // metadata the first time code uses it); the second pass, after warm-ups, the steady state.
        if options.parts != .stagesOnly {
            progress("heap allocations: a first pass in this fresh process, then steady state")
            for readout in ImuReadout.allCases {
                r.firstPassAllocations.append((readout, try AllocationCount.measure(
                    trace: trace, readout: readout, warmUp: 0, measured: 60, replayWarmUp: 0)))
            }
            for readout in ImuReadout.allCases {
                r.allocations.append((readout, try AllocationCount.measure(trace: trace, readout: readout)))
            }
            progress("heap allocations of the loop publishing to two stream clients")
            r.streamAllocations = try StreamAllocationCount.measure()
        }
        if options.parts != .allocationsOnly {
            progress("stage costs over \(trace.trace.records.count) samples, \(options.runs) passes each")
            r.stages = StageCosts.measure(trace, runs: options.runs)
        }
        if options.parts != .all { return r.finished(since: start, realtime: options.realtime) }

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
        return r.finished(since: start, realtime: options.realtime)
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

extension Bench.Results {
    /// The figures every run ends with, whichever parts it measured.
    fileprivate func finished(since start: Nanoseconds, realtime: RealtimeMode?) -> Bench.Results {
        if realtime != nil { RealtimeMode.leaveFIFO() }
        var r = self
        r.benchPeakKiB = PeakMemory.ownPeakKiB
        r.seconds = Double(StageClock.now() - start) * 1e-9
        return r
    }
}
