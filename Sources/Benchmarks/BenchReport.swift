import Formats

/// `headtrack bench` results as a table for people and as JSON for tools.
public enum BenchReport {
    /// Targets from the performance issue, shown next to the measured values.
    static let pipelineTargetNs = 1000.0
    static let latenessRatioTarget = 1.2
    static let runMemoryTargetKiB = 16 * 1024

    static func us(_ ns: Int64) -> String { fixed(Double(ns) / 1000, 1) }
    static func pad(_ s: String, _ width: Int) -> String { s.count >= width ? s : String(repeating: " ", count: width - s.count) + s }
    static func padRight(_ s: String, _ width: Int) -> String { s.count >= width ? s : s + String(repeating: " ", count: width - s.count) }
    static func mb(_ kib: Int) -> String { fixed(Double(kib) / 1024, 1) + " MiB" }
    static func ms(_ s: Double) -> String { (s >= 0 ? "+" : "") + fixed(s * 1000, 1) + " ms" }

    public static func table(_ r: Bench.Results) -> String {
        var out = "headtrack bench — \(r.machine)\n"
        if let rt = r.realtime { out += "\(rt)\n" }
        out += "recording: \(r.traceSource)"
            + (r.parts == .allocationsOnly ? "\n" : " (\(r.stages.samples) samples); median of \(r.stages.runs) passes\n\n")

        if r.parts != .allocationsOnly {
            out += "stage cost (thread CPU time)                ns per call\n"
            for e in r.stages.entries {
                var line = "  " + padRight(e.name, 40) + pad(fixed(e.nanoseconds, 1), 8) + "  per " + e.unit
                if e.name == "whole pipeline" {
                    line += e.nanoseconds <= pipelineTargetNs ? "   (target ≤ 1000: met)" : "   (target ≤ 1000: NOT met)"
                }
                out += line + "\n"
            }
            let w = r.stages.calibrationWork
            out += "  (background calibration in one pass: \(w.fits) fits finished, \(w.accepted) accepted, \(w.changes) changes of the correction)\n"
        }
        if r.parts == .stagesOnly { return out + "\n(stage costs only; took \(fixed(r.seconds, 1)) s)\n" }
        if r.parts == .all {
            out += "\nwake-up lateness (µs)        p50     p99   p99.9     max  wake-ups skipped\n"
            for l in r.lateness {
                func row(_ label: String, _ s: LatenessComparison.Side) -> String {
                    "  " + padRight(label, 24) + pad(us(s.p50), 8) + pad(us(s.p99), 8) + pad(us(s.p999), 8) + pad(us(s.max), 8)
                        + pad(String(s.wakeUps), 10) + pad(String(s.skipped), 8) + "\n"
                }
                out += row("\(Int(l.rateHz)) Hz C reference", l.c)
                out += row("  Swift scheduler", l.scheduler)
                out += row("  whole loop (sim. board)", l.loop)
                out += "  " + padRight("  p99 ratio to C", 24) + pad(fixed(l.ratioP99, 2), 16) + " scheduler, "
                    + fixed(l.loopRatioP99, 2) + " whole loop; C against itself (odd/even turns) "
                    + fixed(l.cSplitHalfRatioP99, 2)
                    + (l.rateHz == 1000 ? (l.ratioP99 <= latenessRatioTarget ? "   (target ≤ 1.2: met)" : "   (target ≤ 1.2: NOT met)") : "") + "\n"
            }
        }

        out += "\nheap allocations in steady state (interposed malloc, this thread; background calibration on)\n"
        for (readout, a) in r.allocations {
            if !a.counterAvailable { out += "  counter not available in this build (not glibc)\n"; break }
            out += "  loop on the simulated board, \(readout.rawValue): \(a.loop.allocations) in \(a.loop.steps) wake-ups "
                + "(\(fixed(a.loop.perStep, 3)) per iteration, \(a.loopSamples) IMU samples)\n"
        }
        if let a = r.allocations.first?.count, a.counterAvailable {
            out += "  replay of the recording: \(a.replay.allocations) in \(a.replay.steps) samples (\(fixed(a.replay.perStep, 3)) per sample)\n"
            out += "  mount watch (run, learning while worn): \(a.watch.allocations) in \(a.watch.steps) samples (\(fixed(a.watch.perStep, 3)) per sample)\n"
            if let f = r.firstPassAllocations.first?.count {
                let loops = r.firstPassAllocations.map { "\($0.readout.rawValue) \($0.count.loop.allocations)" }
                out += "  first pass in this fresh process, from the first wake-up and sample (one-time: Swift type metadata on first use): loop "
                    + loops.joined(separator: ", ") + "; replay \(f.replay.allocations); mount watch \(f.watch.allocations)\n"
            }
            if let st = r.streamAllocations {
                out += "  loop publishing to \(st.clientsAccepted) stream clients (one reading, one stalled): \(st.loop.allocations) in "
                    + "\(st.loop.steps) wake-ups (\(st.gestures) gestures, \(st.bytesToReader) bytes to the reader, "
                    + "\(st.stateLinesDroppedForStalledClient) state lines dropped for the stalled one, "
                    + "\(st.requests) requests read, \(st.answersAndErrors) answers and errors, \(st.explainLines) explain lines)\n"
            }
        }
        if r.parts == .allocationsOnly { return out + "\n(allocations only; took \(fixed(r.seconds, 1)) s)\n" }

        out += "\n1 kHz on the simulated board, 60 s of simulated time at full speed, I²C time modelled at 400 kHz\n"
        for s in r.sustained {
            let rep = s.report
            let samples = s.readout == .fifo
                ? "\(rep.imuSamples) samples (all the chip took; \(rep.fifoSamplesLost) lost, \(rep.fifoOverflows) FIFO overflows)"
                : "\(rep.imuSamples)/\(s.expectedSamples) samples"
            out += "  \(padRight(s.readout.rawValue, 8)) \(samples), \(rep.overruns) overruns; "
                + "work per wake-up p99 \(us(rep.timing.tick.percentile(0.99))) µs (real time, simulation included); "
                + "ran in \(fixed(rep.realSeconds, 2)) s\n"
        }

        out += "\nend of nod → nod LED on (simulated, 200 Hz, display at 60 Hz)\n"
        for n in r.nodLatency {
            out += "  \(padRight(n.readout.rawValue, 8)) median \(ms(n.median)) (min \(ms(n.minimum)), max \(ms(n.maximum))), "
                + "\(n.detected)/\(n.latencies.count) nods lit the LED\n"
        }

        out += "\npeak memory (RSS)\n"
        for m in r.childMemory {
            let target = m.arguments.first == "run" ? (m.peakKiB <= runMemoryTargetKiB ? "   (target ≤ 16 MiB: met)" : "   (target ≤ 16 MiB: NOT met)") : ""
            out += "  headtrack \(m.arguments.joined(separator: " ")): \(mb(m.peakKiB))"
                + (m.exitStatus == 0 ? "" : " (exit status \(m.exitStatus))") + target + "\n"
        }
        out += "  this benchmark (recording loaded): \(mb(r.benchPeakKiB))\n"
        out += "\ntook \(fixed(r.seconds, 1)) s; rerun with: swift build -c release && .build/release/headtrack bench\n"
        return out
    }

    public static func json(_ r: Bench.Results) -> String {
        JSONOutput.object { j in
            j.add("machine", .string(r.machine))
            if let rt = r.realtime { j.add("realtime", .string(rt)) }
            j.add("recording", .object { o in
                o.add("source", .string(r.traceSource))
                o.add("synthetic", .bool(r.traceIsSynthetic))
                o.add("samples", .integer(r.stages.samples))
                o.add("passes", .integer(r.stages.runs))
            })
            j.add("stage_ns_per_call", .array(r.stages.entries.map { e in
                .object { o in
                    o.add("stage", .string(e.name))
                    o.add("ns", .number(e.nanoseconds, digits: 1))
                    o.add("per", .string(e.unit))
                }
            }))
            if let p = r.stages.entry("whole pipeline") { j.add("pipeline_ns_per_sample", .number(p.nanoseconds, digits: 1)) }
            j.add("background_calibration_per_pass", .object { o in
                o.add("fits", .integer(r.stages.calibrationWork.fits))
                o.add("accepted", .integer(r.stages.calibrationWork.accepted))
                o.add("changes", .integer(r.stages.calibrationWork.changes))
            })
            j.add("lateness_us", .array(r.lateness.map { l in
                .object { o in
                    o.add("rate_hz", .number(l.rateHz, digits: 0))
                    for (name, s) in [("c_reference", l.c), ("swift_scheduler", l.scheduler), ("whole_loop", l.loop)] {
                        o.add(name, .object { x in
                            x.add("p50", .number(Double(s.p50) / 1000, digits: 1))
                            x.add("p99", .number(Double(s.p99) / 1000, digits: 1))
                            x.add("p99_9", .number(Double(s.p999) / 1000, digits: 1))
                            x.add("max", .number(Double(s.max) / 1000, digits: 1))
                            x.add("wakeups", .integer(s.wakeUps))
                            x.add("skipped", .integer(s.skipped))
                        })
                    }
                    o.add("ratio_p99_scheduler", .number(l.ratioP99, digits: 3))
                    o.add("ratio_p99_whole_loop", .number(l.loopRatioP99, digits: 3))
                    o.add("ratio_p99_c_odd_vs_even_turns", .number(l.cSplitHalfRatioP99, digits: 3))
                }
            }))
            j.add("allocations", .object { o in
                o.add("counter_available", .bool(r.allocations.first?.count.counterAvailable ?? false))
                for (readout, a) in r.allocations {
                    o.add("loop_\(readout.rawValue)", .object { $0.tally(a.loop, steps: "iterations", per: "per_iteration") })
                }
                if let a = r.allocations.first?.count {
                    o.add("replay", .object { $0.tally(a.replay, steps: "samples", per: "per_sample") })
                    o.add("mount_watch", .object { $0.tally(a.watch, steps: "samples", per: "per_sample") })
                }
                if let f = r.firstPassAllocations.first?.count {
                    o.add("first_pass", .object { x in
                        for (readout, a) in r.firstPassAllocations { x.add("loop_\(readout.rawValue)", .integer(a.loop.allocations)) }
                        x.add("replay", .integer(f.replay.allocations))
                        x.add("mount_watch", .integer(f.watch.allocations))
                    })
                }
                if let st = r.streamAllocations {
                    o.add("loop_with_stream_clients", .object { x in
                        x.tally(st.loop, steps: "iterations", per: "per_iteration")
                        x.add("clients", .integer(st.clientsAccepted))
                        x.add("gestures", .integer(st.gestures))
                        x.add("bytes_to_reader", .integer(st.bytesToReader))
                        x.add("state_lines_dropped_for_stalled_client", .integer(st.stateLinesDroppedForStalledClient))
                        x.add("requests", .integer(st.requests))
                        x.add("answers_and_errors", .integer(st.answersAndErrors))
                        x.add("explain_lines", .integer(st.explainLines))
                    })
                }
            })
            j.add("sustained_1khz_60s", .array(r.sustained.map { s in
                .object { o in
                    o.add("readout", .string(s.readout.rawValue))
                    o.add("samples", .integer(s.report.imuSamples))
                    o.add("expected", .integer(s.expectedSamples))
                    o.add("overruns", .integer(s.report.overruns))
                    o.add("fifo_overflows", .integer(s.report.fifoOverflows))
                    o.add("fifo_samples_lost", .integer(s.report.fifoSamplesLost))
                    o.add("tick_work_p99_us", .number(Double(s.report.timing.tick.percentile(0.99)) / 1000, digits: 1))
                    o.add("real_seconds", .number(s.report.realSeconds, digits: 2))
                }
            }))
            j.add("nod_to_led_ms", .array(r.nodLatency.map { n in
                .object { o in
                    o.add("readout", .string(n.readout.rawValue))
                    o.add("median", .number(n.median * 1000, digits: 1))
                    o.add("min", .number(n.minimum * 1000, digits: 1))
                    o.add("max", .number(n.maximum * 1000, digits: 1))
                    o.add("detected", .integer(n.detected))
                    o.add("nods", .integer(n.latencies.count))
                }
            }))
            j.add("peak_rss_kib", .object { o in
                for m in r.childMemory { o.add(m.arguments.first == "run" ? "run --simulated" : m.arguments.first ?? "", .integer(m.peakKiB)) }
                o.add("bench", .integer(r.benchPeakKiB))
            })
            j.add("seconds", .number(r.seconds, digits: 1))
        }.text() + "\n"
    }
}

extension JSONObjectWriter {
    /// One allocation tally: its count, its steps under the name `steps`, and the ratio under `per`.
    mutating func tally(_ t: AllocationTally, steps: String, per: String) {
        add("allocations", .integer(t.allocations))
        add(steps, .integer(t.steps))
        add(per, .number(t.perStep, digits: 4))
    }
}
