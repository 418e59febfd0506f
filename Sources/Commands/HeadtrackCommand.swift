#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Entry point: dispatches `headtrack NAME ...` to the command of that name.
public enum HeadtrackCommand {
    /// Every subcommand, in the order `--help` lists them. Adding a command = one file + one line here.
    public static var commands: [any Command.Type] {
        [
            DemoCommand.self,
            RunCommand.self,
            WatchCommand.self,
            ProbeCommand.self,
            RecordCommand.self,
            ReplayCommand.self,
            EvalCommand.self,
            CalibrateCommand.self,
            BenchCommand.self,
        ]
    }

    public static let usage = """
        headtrack — IMU head tracker for Raspberry Pi-class boards

        usage: headtrack COMMAND [OPTIONS]    (headtrack COMMAND --help for details)
        """

    public static func main() {
        var args = Array(CommandLine.arguments.dropFirst())
        exit(run(&args))
    }

    /// Runs a command line (without the program name) and returns the exit status.
    public static func run(_ args: inout [String]) -> Int32 {
        guard let name = args.first, name != "--help", name != "-h", name != "help" else {
            Console.out(helpText)
            return args.isEmpty ? 2 : 0
        }
        if name == "--version" { Console.out("headtrack 0.1.0"); return 0 }
        guard let command = commands.first(where: { $0.name == name }) else {
            Console.err("headtrack: unknown command '\(name)'\n\n\(helpText)")
            return 2
        }
        var arguments = Arguments(Array(args.dropFirst()), command: name)
        if arguments.wantsHelp && !(command.dispatchesSubcommands && arguments.remaining.first?.hasPrefix("-") == false) {
            Console.out(command.help)
            return 0
        }
        do {
            return try command.run(&arguments)
        } catch let e as CommandError {
            Console.err("headtrack \(name): \(e.message)")
            return e.status
        } catch {
            Console.err("headtrack \(name): \(error)")
            return 1
        }
    }

    static var helpText: String {
        var s = usage + "\n\ncommands:\n"
        let width = commands.map { $0.name.count }.max() ?? 0
        for c in commands {
            s += "  " + c.name + String(repeating: " ", count: width - c.name.count + 3) + c.summary + "\n"
        }
        return s
    }
}
