import Service
import Commands
import Benchmarks
import Evaluation
import Formats

/// `headtrack bench`: stage costs, scheduler lateness against a C reference, allocations, memory, latency.
struct BenchCommand: Command {
    static let name = "bench"
    static let summary = "measure stage costs, loop wake-up lateness vs a C reference, allocations, memory and latency"
    static let help = options.help("""
        usage: headtrack bench [--json] [--json-file FILE] [--trace FILE] [--seconds S] [--runs N]
                               [--realtime [--cpu N] [--priority P]] [--no-children]
                               [--stages-only | --allocations-only]

        Measures, in one run of well under a minute (build with `swift build -c release` first):
          - ns per call of each stage (driver decode, fusion, heading, smoother, gestures, LEDs) and of the
            whole pipeline per IMU sample, replaying a real recording (BROAD trial 21 from
            ../shared/data/attitude, else a synthetic one, which the report says); median of N passes;
          - wake-up lateness at 1 kHz and 200 Hz (p50, p99, p99.9, max) of a reference loop written in C
            (clock_nanosleep TIMER_ABSTIME), of the Swift scheduler in the same shape, and of the whole loop
            on the simulated board, taking 50 ms turns in the same thread; the p99 ratios to C, and the C
            loop against itself (odd against even turns) as the noise floor of the run;
          - heap allocations per loop iteration in steady state (counted by an interposed malloc), on the
            simulated board, over the recording replay and with two event-stream clients connected;
          - whether 1 kHz holds for 60 s of simulated time with the I²C bus time modelled at 400 kHz;
          - simulated latency from the end of a scripted nod to the nod LED;
          - peak memory of `headtrack run --simulated` and `headtrack demo` (child processes).
        Timing figures depend on the machine and its load: compare the loop with the C reference of the
        same run, not with numbers from another day.
        """)

    static let options = OptionTable(helpColumn: 20, [
        .flag("json", "print the results as JSON (progress goes to stderr)"),
        .value("json-file", "FILE", "also write the JSON to FILE (with the table on stdout)"),
        .value("trace", "FILE", "recording (imu-trace v1) for the stage costs"),
        .value("seconds", "S", "seconds of each loop at 1 kHz in the lateness comparison (default 8; half at 200 Hz)",
               allowed: .numbers(0.1...60, said: "between 0.1 and 60")),
        .value("runs", "N", "passes over the recording per stage (default 9)", allowed: .wholeNumbers(1...101)),
        .flag("realtime", "SCHED_FIFO + mlockall for the benchmark thread (both loops alike)"),
        .value("cpu", "N", "with --realtime: pin to CPU N", allowed: RealtimeOptions.cpus),
        .value("priority", "P", "with --realtime: SCHED_FIFO priority 1...99 (default 50)", allowed: RealtimeOptions.priorities),
        .flag("no-children", "skip the child-process memory measurements"),
        .flag("stages-only", "measure the stage costs only (seconds; what scripts/bench-vs-vqf.sh uses)"),
        .flag("allocations-only", "measure the heap allocations only (seconds; what scripts/allocation-guard.sh checks)"),
    ])

    static func run(_ arguments: inout Arguments) throws -> Int32 {
        let asJSON = arguments.flag("json")
        let jsonFile = try arguments.outputPath("json-file")
        var options = Bench.Options()
        options.tracePath = try arguments.option("trace")
        if let s = try arguments.double("seconds") { options.latenessSeconds = s }
        if let n = try arguments.integer("runs") { options.runs = n }
        options.realtime = try RealtimeOptions.parse(&arguments)
        options.measureChildren = !arguments.flag("no-children")
        switch (arguments.flag("stages-only"), arguments.flag("allocations-only")) {
        case (true, true): throw CommandError("--stages-only and --allocations-only exclude each other: give one", status: 2)
        case (true, false): options.parts = .stagesOnly
        case (false, true): options.parts = .allocationsOnly
        case (false, false): options.parts = .all
        }
        try arguments.finish()
        let results = try Bench.run(options) { line in Console.err("bench: " + line) }
        Console.out(asJSON ? BenchReport.json(results) : BenchReport.table(results))
        if let path = jsonFile {
            do { try FileIO.writeAtomically(path, Array(BenchReport.json(results).utf8)) } catch { throw CommandError(error.description) }
        }
        return 0
    }
}
