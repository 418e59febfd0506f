import Service
import Commands
import Benchmarks
import Evaluation
import Formats

/// `headtrack eval smoothing`: the heading-smoother benchmark. A topic of the `eval` dispatcher, which
/// calls `run` with the arguments after the topic name.
public enum EvalSmoothingCommand {
    public static let topic = "smoothing"
    public static let summary = "settling, lag, jitter and wrap behaviour of the heading smoothers at 30/60/120 Hz"
    public static let help = options.help("""
        usage: headtrack eval smoothing [--json] [--data DIR]

        Runs each heading smoother (and the raw heading as reference) at 30, 60 and 120 Hz display rates, in
        simulated time:
          settle   seconds from the start of a 90° turn made in 0.3 s until the display stays within 2°
          lag      mean degrees behind a steady 60 °/s turn
          jitter   RMS degrees at rest with 1° RMS noise on the raw heading, and on the still stretches of
                   real recordings (raw heading from the 9D attitude filter + tilt-compensated compass)
          wrap     turns and jumps across north both ways: the display never moves the long way
        """, outro: """
        example:
          headtrack eval smoothing --data ../shared/data/attitude
        """)

    public static let options = OptionTable(helpColumn: 15, [
        .flag("json", "print JSON instead of a table"),
        .value("data", "DIR", """
            directory of imu-trace v1 recordings with magnetometer (default: shared/data/attitude
            found beside the repository or the binary; without one the recorded jitter column is
            left empty, and the report says so)
            """),
    ])


    public static func run(_ arguments: inout Arguments) throws -> Int32 {
        let asJSON = arguments.flag("json")
        let explicitData = try arguments.option("data")
        try arguments.finish()

        var recordings: [RecordedHeadings] = []
        if let directory = explicitData ?? SharedData.locate("attitude") {
            do {
                recordings = try RecordedHeadings.load(directory: directory)
            } catch {
                // FileError and TraceError already name the file and say what to do.
                throw CommandError("\(error)")
            }
            if recordings.isEmpty && explicitData != nil {
                throw CommandError("no imu-trace files with a magnetometer in \(directory); point --data at shared/data/attitude")
            }
        } else {
            Console.err("\(Invocation.program) eval smoothing: no shared/data/attitude found beside the repository or the binary; pass --data DIR to score jitter on real recordings")
        }

        let rows = SmoothingEvaluation.evaluate(recordings: recordings)
        if asJSON {
            Console.write(1, SmoothingEvaluation.json(rows, recordings: recordings))
        } else {
            if !recordings.isEmpty {
                Console.out("recordings: " + recordings.map(\.name).joined(separator: ", "))
            }
            Console.write(1, SmoothingEvaluation.table(rows))
        }
        return 0
    }
}
