import Benchmarks
import LibC
import Commands

/// Entry point of the lab executable `headtrack-lab`: bench and eval, which the daemon does not link.
public enum LabCommand {
    /// Every lab command, in the order `--help` lists them. Adding one = one file + one line here.
    public static var commands: [any Command.Type] {
        [
            EvalCommand.self,
            BenchCommand.self,
        ]
    }

    public static let tool = tool(program: "headtrack-lab")

    /// The lab's commands under the name it was called by (`headtrack` when the daemon handed a command on).
    static func tool(program: String) -> CommandSet {
        CommandSet(
        program: program,
        title: "benchmarks and evaluations of headtrack (not installed on a headset)",
        description: "headtrack-lab measures headtrack: attitude, gesture and smoothing evaluations on recordings and "
            + "simulated motion, and the benchmark of stage costs, loop lateness, allocations and memory. It holds the "
            + "benchmark-only code the daemon never links. \\fBheadtrack eval\\fR and \\fBheadtrack bench\\fR run it "
            + "when it sits beside \\fBheadtrack\\fR.",
        commands: commands)
    }

    public static func main() {
        var args = Array(CommandLine.arguments.dropFirst())
        exit(tool(program: Invocation.program).run(&args, mayExec: false))
    }

    /// Runs a command line (without the program name) and returns the exit status.
    public static func run(_ args: inout [String]) -> Int32 { tool.run(&args, mayExec: false) }
}
