#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import BuildInfo

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

        usage: headtrack COMMAND [OPTIONS]    (headtrack COMMAND --help, or headtrack help COMMAND, for details)
               headtrack --version
        """

    public static func main() {
        var args = Array(CommandLine.arguments.dropFirst())
        exit(run(&args))
    }

    /// Runs a command line (without the program name) and returns the exit status.
    /// No arguments is a usage error (usage on stderr, exit 2); asking for help is not (stdout, exit 0).
    public static func run(_ args: inout [String]) -> Int32 {
        guard let name = args.first else {
            Console.err(usage + "\n\nheadtrack --help lists the commands")
            return 2
        }
        switch name {
        case "--help", "-h": Console.out(helpText); return 0
        case "help": return help(Array(args.dropFirst()))
        case "--version": Console.out(BuildInfo.versionLine); return 0
        default: break
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            Console.err("headtrack: unknown command '\(name)'\n\n\(helpText)")
            return 2
        }
        var arguments = Arguments(Array(args.dropFirst()), command: name)
        if arguments.wantsHelp && !(command.dispatchesSubcommands && arguments.remaining.first?.hasPrefix("-") == false) {
            Console.out(fullHelp(command))
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

    /// `headtrack help [COMMAND [TOPIC]]`, `headtrack help --man`, `headtrack help --bash-completion`.
    static func help(_ words: [String]) -> Int32 {
        guard let first = words.first else { Console.out(helpText); return 0 }
        switch first {
        case "--man": Console.write(1, HelpDocuments.manPage()); return 0
        case "--bash-completion": Console.write(1, HelpDocuments.bashCompletion()); return 0
        default: break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            Console.err("headtrack help: unknown command '\(first)'\n\n\(helpText)")
            return 2
        }
        if words.count > 1, let topic = EvalCommand.topics.first(where: { $0.topic == words[1] }), command.name == EvalCommand.name {
            Console.out(EvalCommand.fullHelp(topic))
            return 0
        }
        Console.out(fullHelp(command))
        return 0
    }

    /// A command's help with the exit statuses it can end with.
    static func fullHelp(_ command: any Command.Type) -> String {
        command.help + (command.help.hasSuffix("\n") ? "\n" : "\n\n") + ExitStatus.text(extra: command.extraExitStatuses)
    }

    static var helpText: String {
        var s = usage + "\n\ncommands:\n"
        let width = commands.map { $0.name.count }.max() ?? 0
        for c in commands {
            s += "  " + c.name + String(repeating: " ", count: width - c.name.count + 3) + c.summary + "\n"
        }
        s += "  help" + String(repeating: " ", count: max(width - 4, 0) + 3) + "help COMMAND shows a command's help; help --man, help --bash-completion\n"
        return s + "\n" + ExitStatus.text()
    }
}
