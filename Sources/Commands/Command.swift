import LibC
import Hardware
import Formats
import Service

/// What a command and a subcommand (eval's topics) both are: a summary, a help, the options and a run.
public protocol DocumentedCommand {
    /// One line for `headtrack --help`.
    static var summary: String { get }
    /// Full text for `headtrack NAME --help`: usage line, options, examples (the options section made from
    /// `options`: `OptionTable.help`).
    static var help: String { get }
    /// Every option the command takes: its parser takes options only through this table.
    static var options: OptionTable { get }
    /// Runs with the arguments after the command name; returns the process exit status.
    static func run(_ arguments: inout Arguments) throws -> Int32
}

/// A subcommand of `headtrack`. Each lives in its own file and is listed in `HeadtrackCommand.commands`.
public protocol Command: DocumentedCommand {
    /// Name on the command line ("demo").
    static var name: String { get }
    /// True for commands whose first argument names a subcommand with its own --help (e.g. `eval`).
    static var dispatchesSubcommands: Bool { get }
    /// Exit statuses beyond the common ones (0 done, 1 failed, 2 usage), for `--help`.
    static var extraExitStatuses: [(status: Int32, meaning: String)] { get }
    /// Subcommands with a help of their own (eval's topics), for `help COMMAND TOPIC`, the man page and
    /// the completion.
    static var documentedSubcommands: [Subcommand] { get }
    /// What `--json` prints on standard output when the command fails: a script that asked for JSON gets JSON.
    static func jsonFailure(_ message: String) -> String
    /// True for commands that serve the socket or write files: `main` installs the clean stop on INT, TERM,
    /// HUP and a closed output (`StopSignals.installForCleanStop`) before they create anything, and they poll it.
    static var stopsCleanly: Bool { get }
}

extension Command {
    public static var dispatchesSubcommands: Bool { false }
    public static var stopsCleanly: Bool { false }
    public static var extraExitStatuses: [(status: Int32, meaning: String)] { [] }
    public static var documentedSubcommands: [Subcommand] { [] }
    public static func jsonFailure(_ message: String) -> String {
        JSONOutput.object(.compact) { o in o.add("ok", .bool(false)); o.add("error", .string(message)) }.text()
    }
}

/// A subcommand with a help and options of its own (`eval gestures`).
public struct Subcommand {
    public let name: String
    public let summary: String
    public let help: String
    public let options: OptionTable

    public init(name: String, summary: String, help: String, options: OptionTable) {
        self.name = name; self.summary = summary; self.help = help; self.options = options
    }
}

/// The exit statuses every command shares; `--help` ends with them (and the man page lists them).
public enum ExitStatus {
    public static let common: [(status: Int32, meaning: String)] = [
        (0, "done"),
        (1, "failed: the message on stderr says what happened and what to do"),
        (2, "usage error: unknown option, bad or missing value (nothing was done)"),
    ]

    /// "exit status:\n  0  done\n  ..." with `extra` in status order.
    public static func text(extra: [(status: Int32, meaning: String)] = []) -> String {
        let lines = (common.filter { c in !extra.contains { $0.status == c.status } } + extra).sorted { $0.status < $1.status }
        return "exit status:\n" + lines.map { "  \($0.status)  \($0.meaning)" }.joined(separator: "\n") + "\n"
    }
}

/// A user-facing failure: printed as "headtrack COMMAND: MESSAGE" with exit status `status`. `command` names a
/// subcommand the dispatcher does not know of ("eval gestures"), when there is one.
public struct CommandError: Error, CustomStringConvertible {
    public var message: String
    public var status: Int32
    public var command: String? = nil
    public init(_ message: String, status: Int32 = 1) { self.message = message; self.status = status }
    public var description: String { message }
}

/// Whether a file can be written where the user asked, before any work is done.
enum OutputCheck {
    /// nil when `path` can be created or replaced; otherwise what is wrong, said so the user can fix it.
    static func problem(_ path: String) -> String? {
        if path.isEmpty { return "an empty file name" }
        var st = stat()
        if stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR { return "is a directory: name a file in it" }
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let dir = directory.isEmpty ? "/" : directory
        guard stat(dir, &st) == 0 else { return "the directory \(dir) does not exist: create it first or pick another path" }
        guard (st.st_mode & S_IFMT) == S_IFDIR else { return "\(dir) is not a directory" }
        guard access(dir, W_OK) == 0 else { return "cannot write in \(dir): \(describeErrno(errno))" }
        return nil
    }
}
