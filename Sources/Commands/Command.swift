import LibC
import Hardware
import Formats
import Service

/// A subcommand of `headtrack`. Each lives in its own file and is listed in `HeadtrackCommand.commands`.
public protocol Command {
    /// Name on the command line ("demo").
    static var name: String { get }
    /// One line for `headtrack --help`.
    static var summary: String { get }
    /// Full text for `headtrack NAME --help`: usage line, options, examples.
    static var help: String { get }
    /// Runs with the arguments after the command name; returns the process exit status.
    static func run(_ arguments: inout Arguments) throws -> Int32
    /// True for commands whose first argument names a subcommand with its own --help (e.g. `eval`).
    static var dispatchesSubcommands: Bool { get }
    /// Exit statuses beyond the common ones (0 done, 1 failed, 2 usage), for `--help`.
    static var extraExitStatuses: [(status: Int32, meaning: String)] { get }
    /// Subcommands with a help of their own (eval's topics), for `help COMMAND TOPIC`, the man page and
    /// the completion.
    static var documentedSubcommands: [(name: String, summary: String, help: String)] { get }
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
    public static var documentedSubcommands: [(name: String, summary: String, help: String)] { [] }
    public static func jsonFailure(_ message: String) -> String {
        JSONOutput.object(.compact) { o in o.add("ok", .bool(false)); o.add("error", .string(message)) }.text()
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

/// Minimal option parser: `--name value`, `--name=value`, flags, and positionals. Unknown options are errors.
public struct Arguments {
    public private(set) var remaining: [String]
    public let command: String

    public init(_ arguments: [String], command: String) {
        remaining = arguments
        self.command = command
    }

    public var wantsHelp: Bool { remaining.contains("--help") || remaining.contains("-h") }

    /// Removes and returns the value of `--name VALUE` or `--name=VALUE`, if present. Given twice is a usage
    /// error that says so (which of two values was meant is not ours to guess).
    public mutating func option(_ name: String) throws -> String? {
        guard let first = try take(name) else { return nil }
        if let second = try take(name) {
            throw CommandError("--\(name) given twice (\(Shown.quoted(first)) and \(Shown.quoted(second))): give it once", status: 2)
        }
        return first
    }

    /// All values of a repeatable option.
    public mutating func options(_ name: String) throws -> [String] {
        var values: [String] = []
        while let v = try take(name) { values.append(v) }
        return values
    }

    /// The first `--name VALUE` or `--name=VALUE`, removed.
    private mutating func take(_ name: String) throws -> String? {
        let flag = "--" + name
        for (i, a) in remaining.enumerated() {
            if a == flag {
                guard i + 1 < remaining.count else { throw CommandError("\(flag) needs a value (see \(Invocation.program) \(command) --help)", status: 2) }
                let v = remaining[i + 1]
                remaining.removeSubrange(i...(i + 1))
                return v
            }
            if a.hasPrefix(flag + "=") {
                remaining.remove(at: i)
                return String(a.dropFirst(flag.count + 1))
            }
        }
        return nil
    }

    public mutating func double(_ name: String) throws -> Double? {
        guard let s = try option(name) else { return nil }
        guard let v = CommandLineNumber.parse(s) else {
            throw CommandError("--\(name) expects a decimal number such as 2 or 0.5, got \(Shown.quoted(s))", status: 2)
        }
        return v
    }

    /// A number that must lie in `range` (e.g. a duration > 0): out of range is a usage error that says so.
    public mutating func double(_ name: String, in range: ClosedRange<Double>, what: String) throws -> Double? {
        guard let v = try double(name) else { return nil }
        guard range.contains(v) else { throw CommandError("--\(name) must be \(what), got \(s(v))", status: 2) }
        return v
    }

    /// A duration in seconds: at least a millisecond and at most a year (a loop bound, so never absurd).
    public mutating func duration(_ name: String = "duration") throws -> Double? {
        try double(name, in: 1e-3...(366 * 86400), what: "a time in seconds from 0.001 up to a year (31622400)")
    }

    /// `--name FILE` for something the command will write, checked now so that a typo fails before the work
    /// (a demo or a long replay), not after it: the directory must exist and be writable, and FILE must not
    /// be a directory. `-` (standard output) passes where `allowStandardOutput` is set.
    public mutating func outputPath(_ name: String, allowStandardOutput: Bool = false) throws -> String? {
        guard let path = try option(name) else { return nil }
        if path == "-" {
            guard allowStandardOutput else { throw CommandError("--\(name) cannot be '-' (standard output) here: name a file", status: 2) }
            return path
        }
        if let problem = OutputCheck.problem(path) { throw CommandError("--\(name) \(path): \(problem)", status: 2) }
        return path
    }

    /// `--name PATH` for a socket the command will serve: its directory must exist and be writable, checked
    /// now like an output file, so a typo is a usage error before the work, not a failure after set-up.
    public mutating func socketPath(_ name: String = "socket") throws -> String? {
        guard let path = try option(name) else { return nil }
        if let problem = OutputCheck.problem(path) { throw CommandError("--\(name) \(path): \(problem)", status: 2) }
        return path
    }

    private func s(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)" }

    /// A whole number inside `range` (a count of 1.5 is a typo, not 1).
    public mutating func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let s = try option(name) else { return nil }
        guard let v = Int(s), range.contains(v) else {
            throw CommandError("--\(name) must be a whole number \(range.lowerBound)...\(range.upperBound), got '\(s)'", status: 2)
        }
        return v
    }

    /// Whether `--name` is given; given twice it is the same flag.
    public mutating func flag(_ name: String) -> Bool {
        let before = remaining.count
        remaining.removeAll { $0 == "--" + name }
        return remaining.count < before
    }

    /// Removes and returns the positional arguments; any leftover option is an error.
    public mutating func positionals() throws -> [String] {
        if let unknown = remaining.first(where: { $0.hasPrefix("--") || ($0.hasPrefix("-") && $0.count > 1 && Double($0) == nil) }) {
            throw CommandError("unknown option \(Shown.quoted(unknown)) for '\(command)' (see \(Invocation.program) \(command) --help)", status: 2)
        }
        let p = remaining
        remaining = []
        return p
    }

    /// Everything that is left, options included (for dispatchers that hand the rest to a subcommand).
    public mutating func positionalsAndOptions() throws -> [String] {
        let p = remaining
        remaining = []
        return p
    }

    /// Call after taking every option: fails on anything left over.
    public mutating func finish() throws {
        let p = try positionals()
        if let first = p.first {
            throw CommandError("unexpected argument \(Shown.quoted(first)) for '\(command)' (see \(Invocation.program) \(command) --help)", status: 2)
        }
    }
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
