#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Runtime

/// Entry point of the daemon: dispatches `headtrack NAME ...` to the command of that name.
public enum HeadtrackCommand {
    /// Every subcommand, in the order `--help` lists them. Adding a command = one file + one line here.
    public static var commands: [any Command.Type] {
        [
            DemoCommand.self,
            RunCommand.self,
            ProbeCommand.self,
            RecordCommand.self,
            ReplayCommand.self,
            CalibrateCommand.self,
        ]
    }

    /// Commands of the lab executable that `headtrack` hands on to it, so `headtrack bench` keeps working.
    public static let labCommands: [(name: String, summary: String)] = [
        ("eval", "measure attitude, gestures or smoothing on recordings and simulated motion"),
        ("bench", "measure stage costs, loop lateness vs a C reference, allocations, memory and latency"),
    ]

    public static let tool = CommandSet(
        program: "headtrack",
        usage: """
            headtrack — IMU head tracker for Raspberry Pi-class boards

            usage: headtrack COMMAND [OPTIONS]    (headtrack COMMAND --help for details)
            """,
        commands: commands, forwarded: labCommands, forwardTo: LabForwarding.lab)

    public static func main() {
        var args = Array(CommandLine.arguments.dropFirst())
        exit(tool.run(&args, mayExec: true))
    }

    /// Runs a command line (without the program name) in this process and returns the exit status. Lab
    /// commands are not linked into the daemon: in-process they fail with a pointer to `LabCommand.run`.
    public static func run(_ args: inout [String]) -> Int32 { tool.run(&args, mayExec: false) }

    static var helpText: String { tool.helpText }
}

/// One executable's command table: dispatch, `--help`, `--version` and error printing, shared by
/// `headtrack` and `headtrack-lab`.
public struct CommandSet: Sendable {
    public let program: String
    public let usage: String
    nonisolated(unsafe) public let commands: [any Command.Type]
    /// Commands that live in the executable `forwardTo` beside this one (name, summary for `--help`).
    public let forwarded: [(name: String, summary: String)]
    public let forwardTo: String?

    public init(program: String, usage: String, commands: [any Command.Type],
                forwarded: [(name: String, summary: String)] = [], forwardTo: String? = nil) {
        self.program = program; self.usage = usage; self.commands = commands
        self.forwarded = forwarded; self.forwardTo = forwardTo
    }

    /// Runs a command line (without the program name) and returns the exit status. With `mayExec` a
    /// forwarded command replaces this process with the sibling executable (only `main` may do that).
    public func run(_ args: inout [String], mayExec: Bool) -> Int32 {
        guard let name = args.first, name != "--help", name != "-h", name != "help" else {
            Console.out(helpText)
            return args.isEmpty ? 2 : 0
        }
        if name == "--version" { Console.out("\(program) 0.1.0"); return 0 }
        if let target = forwardTo, forwarded.contains(where: { $0.name == name }) {
            return LabForwarding.forward(args, to: target, from: program, mayExec: mayExec)
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            Console.err("\(program): unknown command '\(name)'\n\n\(helpText)")
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
            Console.err("\(program) \(name): \(e.message)")
            return e.status
        } catch {
            Console.err("\(program) \(name): \(error)")
            return 1
        }
    }

    public var helpText: String {
        var s = usage + "\n\ncommands:\n"
        let all = commands.map { ($0.name, $0.summary) } + forwarded.map { ($0.name, $0.summary + " (in \(forwardTo ?? "?"))") }
        let width = all.map { $0.0.count }.max() ?? 0
        for (name, summary) in all {
            s += "  " + name + String(repeating: " ", count: width - name.count + 3) + summary + "\n"
        }
        return s
    }
}

/// `headtrack bench|eval ...` runs `headtrack-lab bench|eval ...` from the same build directory (exec, so
/// exit status, output and signals are the lab's own). The lab is not installed on the headset: there the
/// command says so and what to do instead.
enum LabForwarding {
    static let lab = "headtrack-lab"

    static func forward(_ args: [String], to name: String, from program: String, mayExec: Bool) -> Int32 {
        guard mayExec else {
            Console.err("\(program) \(args[0]): lives in \(name), not in the daemon; run it as `\(name) \(args[0])`")
            return 2
        }
        guard let path = SiblingExecutable.path(name), SiblingExecutable.isExecutable(path) else {
            Console.err("""
                \(program) \(args[0]): this is a lab command, and \(name) is not installed beside \(program) \
                (the headset install ships only the daemon). Build both with `swift build -c release` and run \
                `.build/release/\(name) \(args.joined(separator: " "))`.
                """)
            return 2
        }
        var cStrings: [UnsafeMutablePointer<CChar>?] = ([name] + args).map { strdup($0) } + [nil]
        execv(path, &cStrings)
        let why = String(cString: strerror(errno))
        for p in cStrings { free(p) }
        Console.err("\(program) \(args[0]): cannot start \(path): \(why)")
        return 1
    }
}
