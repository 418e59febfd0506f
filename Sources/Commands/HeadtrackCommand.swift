import LibC
import BuildInfo
import Formats
import Service
import Hardware

/// Entry point of the daemon: dispatches `headtrack NAME ...` to the command of that name.
public enum HeadtrackCommand {
    /// Every subcommand, in the order `--help` lists them. Adding a command = one file + one line here.
    public static var commands: [any Command.Type] {
        [
            DemoCommand.self,
            RunCommand.self,
            WatchCommand.self,
            ViewCommand.self,
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
        title: "IMU head tracker for Raspberry Pi-class boards",
        description: "headtrack reads an IMU and magnetometer over I\\(S2C, fuses attitude and a tilt-compensated "
            + "heading, detects head gestures (nod, shake, flicks) and drives LEDs through the GPIO character device. "
            + "Every command has \\fB\\-\\-help\\fR; \\fBheadtrack help\\fR \\fICOMMAND\\fR prints the same text. "
            + "The lab commands (eval, bench) are in \\fBheadtrack-lab\\fR, which is not installed on a headset.",
        files: ".SH FILES\n.TP\n/etc/headtrack/config.json\nconfiguration (JSON, every field optional)\n"
            + ".TP\n/var/lib/headtrack/calibration.json\ngyro bias and magnetometer calibration written by \\fBheadtrack calibrate\\fR\n",
        commands: commands, forwarded: labCommands, forwardTo: LabForwarding.lab)

    public static func main() {
        var args = Array(CommandLine.arguments.dropFirst())
        // Before the command creates anything: a signal that came between its socket and its handlers killed it
        // with the socket, the lock and its temporaries left behind. (Not in `run`, which tests call in-process.)
        if let name = args.first, commands.contains(where: { $0.name == name && $0.stopsCleanly }) {
            StopSignals.installForCleanStop()
        }
        exit(tool.run(&args, mayExec: true))
    }

    /// Runs a command line (without the program name) in this process and returns the exit status. Lab
    /// commands are not linked into the daemon: in-process they fail with a pointer to `headtrack-lab`.
    public static func run(_ args: inout [String]) -> Int32 { tool.run(&args, mayExec: false) }

    static var helpText: String { tool.helpText }
    static func fullHelp(_ command: any Command.Type) -> String { CommandSet.fullHelp(command) }
}

/// One executable's command table: dispatch, `--help`, `help COMMAND`, `--version`, the man page and the
/// completion, and error printing, shared by `headtrack` and `headtrack-lab`.
public struct CommandSet: Sendable {
    public let program: String
    /// The man page's NAME line.
    public let title: String
    /// The man page's DESCRIPTION paragraph (roff).
    public let description: String
    /// The man page's FILES section (roff), or "".
    public let files: String
    nonisolated(unsafe) public let commands: [any Command.Type]
    /// Commands that live in the executable `forwardTo` beside this one (name, summary for `--help`).
    public let forwarded: [(name: String, summary: String)]
    public let forwardTo: String?

    public init(program: String, title: String, description: String, files: String = "",
                commands: [any Command.Type], forwarded: [(name: String, summary: String)] = [],
                forwardTo: String? = nil) {
        self.program = program; self.title = title; self.description = description; self.files = files
        self.commands = commands; self.forwarded = forwarded; self.forwardTo = forwardTo
    }

    public var usage: String {
        """
        \(program) — \(title)

        usage: \(program) COMMAND [OPTIONS]    (\(program) COMMAND --help, or \(program) help COMMAND, for details)
               \(program) --version
        """
    }

    /// Runs a command line (without the program name) and returns the exit status. No arguments is a usage
    /// error (usage on stderr, exit 2); asking for help is not (stdout, exit 0). With `mayExec` a forwarded
    /// command replaces this process with the sibling executable (only `main` may do that).
    public func run(_ args: inout [String], mayExec: Bool) -> Int32 {
        guard let name = args.first else {
            Console.err(usage + "\n\n\(program) --help lists the commands")
            return 2
        }
        switch name {
        case "--help", "-h": Console.out(helpText); return 0
        case "help": return help(Array(args.dropFirst()), mayExec: mayExec)
        case "--version": Console.out(BuildInfo.versionLine); return 0
        default: break
        }
        if let target = forwardTo, forwarded.contains(where: { $0.name == name }) {
            return LabForwarding.forward(args, to: target, from: program, mayExec: mayExec)
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            Console.err("\(program): unknown command '\(name)'\n\n\(helpText)")
            return 2
        }
        var arguments = Arguments(Array(args.dropFirst()), command: name, options: command.options)
        if arguments.wantsHelp && !(command.dispatchesSubcommands && arguments.remaining.first?.hasPrefix("-") == false) {
            Console.out(spelled(Self.fullHelp(command)))
            return 0
        }
        let failure: CommandError
        do {
            return try command.run(&arguments)
        } catch let e as CommandError {
            failure = e
        } catch {
            failure = CommandError("\(error)")
        }
        // What came from files, clients or the command line is in the message: no control character of it
        // reaches the terminal, and no value of it makes the line megabytes long.
        let message = Shown.message(failure.message)
        Console.err("\(program) \(failure.command ?? name): \(message)")
        if args.contains("--json") { Console.out(command.jsonFailure(message)) }
        return failure.status
    }

    /// `help [COMMAND [TOPIC]]`, `help --man`, `help --bash-completion`.
    func help(_ words: [String], mayExec: Bool) -> Int32 {
        guard let first = words.first else { Console.out(helpText); return 0 }
        switch first {
        case "--man": Console.write(1, HelpDocuments.manPage(self)); return 0
        case "--bash-completion": Console.write(1, HelpDocuments.bashCompletion(self)); return 0
        case "--help", "-h": Console.out(Self.fullHelp(helpCommandHelp)); return 0
        default: break
        }
        if let target = forwardTo, forwarded.contains(where: { $0.name == first }) {
            return LabForwarding.forward(["help"] + words, to: target, from: program, mayExec: mayExec)
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            Console.err("\(program) help: unknown command '\(first)'\n\n\(helpText)")
            return 2
        }
        if words.count > 1, let topic = command.documentedSubcommands.first(where: { $0.name == words[1] }) {
            Console.out(spelled(Self.fullHelp(topic.help)))
            return 0
        }
        Console.out(spelled(Self.fullHelp(command)))
        return 0
    }

    /// `help --help`.
    var helpCommandHelp: String {
        """
        usage: \(program) help [COMMAND [TOPIC]]
               \(program) help --man
               \(program) help --bash-completion

        Prints a command's help, the same text as `\(program) COMMAND --help` (with a TOPIC, a subcommand's:
        help eval gestures). --man prints a man page of every command (troff: man -l - reads it) and
        --bash-completion a bash completion script, both made from the same help texts.
        """
    }

    /// `text` with this executable's own commands named as it was called ("headtrack-lab bench").
    func spelled(_ text: String) -> String { Invocation.spelled(text, commands: commands.map { $0.name }, as: program) }

    /// A command's help with the exit statuses it can end with.
    public static func fullHelp(_ command: any Command.Type) -> String {
        fullHelp(command.help, extra: command.extraExitStatuses)
    }

    public static func fullHelp(_ help: String, extra: [(status: Int32, meaning: String)] = []) -> String {
        help + (help.hasSuffix("\n") ? "\n" : "\n\n") + ExitStatus.text(extra: extra)
    }

    public var helpText: String {
        var s = usage + "\n\ncommands:\n"
        let all = commands.map { ($0.name, $0.summary) } + forwarded.map { ($0.name, $0.summary + " (in \(forwardTo ?? "?"))") }
        let width = all.map { $0.0.count }.max() ?? 0
        for (name, summary) in all {
            s += "  " + name + String(repeating: " ", count: width - name.count + 3) + summary + "\n"
        }
        s += "  help" + String(repeating: " ", count: max(width - 4, 0) + 3) + "help COMMAND shows a command's help; help --man, help --bash-completion\n"
        return s + "\n" + ExitStatus.text()
    }
}

/// `headtrack bench|eval ...` runs `headtrack-lab bench|eval ...` from the same build directory (exec, so
/// exit status, output and signals are the lab's own). The lab is not installed on the headset: there the
/// command says so and what to do instead.
enum LabForwarding {
    static let lab = "headtrack-lab"

    static func forward(_ args: [String], to name: String, from program: String, mayExec: Bool) -> Int32 {
        let what = args.prefix(args.first == "help" ? 2 : 1).joined(separator: " ")
        guard mayExec else {
            Console.err("\(program) \(what): lives in \(name), not in the daemon; run it as `\(name) \(what)`")
            return 2
        }
        guard let path = SiblingExecutable.path(name), SiblingExecutable.isExecutable(path) else {
            Console.err("\(program) \(what): this is a lab command, and \(name) is not beside \(program). " + missingLabAdvice(name))
            return 1
        }
        // argv[0] is the program the user typed, so the lab's messages and help name it (Invocation).
        var cStrings: [UnsafeMutablePointer<CChar>?] = ([program] + args).map { strdup($0) } + [nil]
        execv(path, &cStrings)
        let why = String(cString: strerror(errno))
        for p in cStrings { free(p) }
        Console.err("\(program) \(what): cannot start \(path): \(why)")
        return 1
    }

    /// In a build tree (`REPO/.build/…/debug|release/`), the one command that builds the lab there; elsewhere
    /// (a headset install), that the lab is not for here.
    static func missingLabAdvice(_ name: String) -> String {
        guard let own = SiblingExecutable.path(""), let build = own.split(separator: "/").lastIndex(where: { $0 == ".build" }) else {
            return "The headset install ships only the daemon: run lab commands on a build machine, from a clone (swift build)."
        }
        let parts = own.split(separator: "/")
        let repository = "/" + parts[..<build].joined(separator: "/")
        let configuration = parts.last == "release" ? " -c release" : ""
        return "Build it with `swift build --package-path \(repository)\(configuration) --product \(name)`, then run this again."
    }
}
