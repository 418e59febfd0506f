import Formats
import Testing

/// Numbers on the command line (`CommandLineNumber`): plain decimals, and refusals that state the real range.
@Suite struct CommandLineNumberTests {
    // Command-line numbers are plain decimals: "0x10" was read as 16 s, and the refusal of a duration below the
    // real minimum (0.001 s) said "above 0", which 0.0001 is.
    @Test func numbersAreDecimalAndRefusalsStateTheRealRange() {
        for text in ["0x10", "0x1p4", "inf", "nan", "1e", "--1", "1.2.3", " 1", "1_000", ""] {
            #expect(CommandLineNumber.parse(text) == nil, "\(text)")
        }
        for (text, value) in [("16", 16.0), ("0.5", 0.5), (".25", 0.25), ("1e-3", 0.001), ("+2", 2), ("-5", -5), ("3.", 3)] {
            #expect(CommandLineNumber.parse(text) == value, "\(text)")
        }
        let hex = HeadtrackProcess.run(["run", "--simulated", "--duration", "0x10"])
        #expect(hex.status == 2)
        #expect(hex.stderr.contains("--duration expects a decimal number"), "\(hex.stderr)")
        let tiny = HeadtrackProcess.run(["run", "--simulated", "--duration", "0.0001"])
        #expect(tiny.status == 2)
        #expect(tiny.stderr.contains("from 0.001 up to a year"), "\(tiny.stderr)")
    }
}
