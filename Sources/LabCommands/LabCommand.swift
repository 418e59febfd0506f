#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
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

    public static let tool = CommandSet(
        program: "headtrack-lab",
        usage: """
            headtrack-lab — benchmarks and evaluations of headtrack (not installed on the headset)

            usage: headtrack-lab COMMAND [OPTIONS]    (headtrack-lab COMMAND --help for details)
            `headtrack COMMAND ...` runs the same when headtrack-lab is built beside headtrack.
            """,
        commands: commands)

    public static func main() {
        var args = Array(CommandLine.arguments.dropFirst())
        exit(tool.run(&args, mayExec: false))
    }

    /// Runs a command line (without the program name) and returns the exit status.
    public static func run(_ args: inout [String]) -> Int32 { tool.run(&args, mayExec: false) }
}
