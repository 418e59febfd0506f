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
        var j = JSONObjectWriter()
        j.string("machine", r.machine)
        if let rt = r.realtime { j.string("realtime", rt) }
        j.object("recording") { o in
            o.string("source", r.traceSource)
            o.bool("synthetic", r.traceIsSynthetic)
            o.number("samples", Double(r.stages.samples))
            o.number("passes", Double(r.stages.runs))
        }
        j.array("stage_ns_per_call") { a in
            for e in r.stages.entries {
                a.object { o in o.string("stage", e.name); o.number("ns", e.nanoseconds, digits: 1); o.string("per", e.unit) }
            }
        }
        if let p = r.stages.entry("whole pipeline") { j.number("pipeline_ns_per_sample", p.nanoseconds, digits: 1) }
        j.object("background_calibration_per_pass") { o in
            o.number("fits", Double(r.stages.calibrationWork.fits))
            o.number("accepted", Double(r.stages.calibrationWork.accepted))
            o.number("changes", Double(r.stages.calibrationWork.changes))
        }
        j.array("lateness_us") { a in
            for l in r.lateness {
                a.object { o in
                    o.number("rate_hz", l.rateHz)
                    for (name, s) in [("c_reference", l.c), ("swift_scheduler", l.scheduler), ("whole_loop", l.loop)] {
                        o.object(name) { x in
                            x.number("p50", Double(s.p50) / 1000, digits: 1)
                            x.number("p99", Double(s.p99) / 1000, digits: 1)
                            x.number("p99_9", Double(s.p999) / 1000, digits: 1)
                            x.number("max", Double(s.max) / 1000, digits: 1)
                            x.number("wakeups", Double(s.wakeUps))
                            x.number("skipped", Double(s.skipped))
                        }
                    }
                    o.number("ratio_p99_scheduler", l.ratioP99, digits: 3)
                    o.number("ratio_p99_whole_loop", l.loopRatioP99, digits: 3)
                    o.number("ratio_p99_c_odd_vs_even_turns", l.cSplitHalfRatioP99, digits: 3)
                }
            }
        }
        j.object("allocations") { o in
            o.bool("counter_available", r.allocations.first?.count.counterAvailable ?? false)
            for (readout, a) in r.allocations {
                o.object("loop_\(readout.rawValue)") { $0.tally(a.loop, steps: "iterations", per: "per_iteration") }
            }
            if let a = r.allocations.first?.count {
                o.object("replay") { $0.tally(a.replay, steps: "samples", per: "per_sample") }
                o.object("mount_watch") { $0.tally(a.watch, steps: "samples", per: "per_sample") }
            }
            if let f = r.firstPassAllocations.first?.count {
                o.object("first_pass") { x in
                    for (readout, a) in r.firstPassAllocations { x.number("loop_\(readout.rawValue)", Double(a.loop.allocations)) }
                    x.number("replay", Double(f.replay.allocations))
                    x.number("mount_watch", Double(f.watch.allocations))
                }
            }
            if let st = r.streamAllocations {
                o.object("loop_with_stream_clients") { x in
                    x.tally(st.loop, steps: "iterations", per: "per_iteration")
                    x.number("clients", Double(st.clientsAccepted))
                    x.number("gestures", Double(st.gestures))
                    x.number("bytes_to_reader", Double(st.bytesToReader))
                    x.number("state_lines_dropped_for_stalled_client", Double(st.stateLinesDroppedForStalledClient))
                    x.number("requests", Double(st.requests))
                    x.number("answers_and_errors", Double(st.answersAndErrors))
                    x.number("explain_lines", Double(st.explainLines))
                }
            }
        }
        j.array("sustained_1khz_60s") { a in
            for s in r.sustained {
                a.object { o in
                    o.string("readout", s.readout.rawValue)
                    o.number("samples", Double(s.report.imuSamples))
                    o.number("expected", Double(s.expectedSamples))
                    o.number("overruns", Double(s.report.overruns))
                    o.number("fifo_overflows", Double(s.report.fifoOverflows))
                    o.number("fifo_samples_lost", Double(s.report.fifoSamplesLost))
                    o.number("tick_work_p99_us", Double(s.report.timing.tick.percentile(0.99)) / 1000, digits: 1)
                    o.number("real_seconds", s.report.realSeconds, digits: 2)
                }
            }
        }
        j.array("nod_to_led_ms") { a in
            for n in r.nodLatency {
                a.object { o in
                    o.string("readout", n.readout.rawValue)
                    o.number("median", n.median * 1000, digits: 1)
                    o.number("min", n.minimum * 1000, digits: 1)
                    o.number("max", n.maximum * 1000, digits: 1)
                    o.number("detected", Double(n.detected))
                    o.number("nods", Double(n.latencies.count))
                }
            }
        }
        j.object("peak_rss_kib") { o in
            for m in r.childMemory { o.number(m.arguments.first == "run" ? "run --simulated" : m.arguments.first ?? "", Double(m.peakKiB)) }
            o.number("bench", Double(r.benchPeakKiB))
        }
        j.number("seconds", r.seconds, digits: 1)
        return j.text + "\n"
    }
}

/// Just enough JSON writing for the report: objects and arrays in insertion order, numbers, strings, booleans.
struct JSONObjectWriter {
    private var members: [String] = []
    private var indent: String

    init(indent: String = "") { self.indent = indent }

    var text: String {
        if members.isEmpty { return "{}" }
        return "{\n" + members.map { indent + "  " + $0 }.joined(separator: ",\n") + "\n" + indent + "}"
    }

    static func quote(_ s: String) -> String { JSONValue.quoted(s) }

    static func number(_ v: Double, digits: Int) -> String {
        guard v.isFinite else { return "null" }
        return v == v.rounded() && digits == 0 ? String(Int64(v)) : fixed(v, digits)
    }

    mutating func string(_ key: String, _ value: String) { members.append(Self.quote(key) + ": " + Self.quote(value)) }
    mutating func bool(_ key: String, _ value: Bool) { members.append(Self.quote(key) + ": " + (value ? "true" : "false")) }
    mutating func number(_ key: String, _ value: Double, digits: Int = 0) {
        members.append(Self.quote(key) + ": " + Self.number(value, digits: digits))
    }
    mutating func object(_ key: String, _ body: (inout JSONObjectWriter) -> Void) {
        var o = JSONObjectWriter(indent: indent + "  ")
        body(&o)
        members.append(Self.quote(key) + ": " + o.text)
    }
    mutating func array(_ key: String, _ body: (inout JSONArrayWriter) -> Void) {
        var a = JSONArrayWriter(indent: indent + "  ")
        body(&a)
        members.append(Self.quote(key) + ": " + a.text)
    }
}

struct JSONArrayWriter {
    private var elements: [String] = []
    let indent: String
    init(indent: String) { self.indent = indent }
    var text: String {
        if elements.isEmpty { return "[]" }
        return "[\n" + elements.map { indent + "  " + $0 }.joined(separator: ",\n") + "\n" + indent + "]"
    }
    mutating func object(_ body: (inout JSONObjectWriter) -> Void) {
        var o = JSONObjectWriter(indent: indent + "  ")
        body(&o)
        elements.append(o.text)
    }
}

extension JSONObjectWriter {
    /// One allocation tally: its count, its steps under the name `steps`, and the ratio under `per`.
    mutating func tally(_ t: AllocationTally, steps: String, per: String) {
        number("allocations", Double(t.allocations))
        number(steps, Double(t.steps))
        number(per, t.perStep, digits: 4)
    }
}
