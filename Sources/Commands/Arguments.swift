import Formats

/// Minimal option parser: `--name value`, `--name=value`, flags, and positionals. It takes only the options of
/// the command's table (asking for another is a bug in the command, and stops it), checks a value against its
/// row's allowed values, and leaves anything else for `finish`, which names it as an unknown option.
public struct Arguments {
    public private(set) var remaining: [String]
    public let command: String
    public let table: OptionTable
    /// The options the command has asked for so far (a test compares them with the table).
    public private(set) var asked: Set<String> = []

    public init(_ arguments: [String], command: String, options table: OptionTable) {
        remaining = arguments
        self.command = command
        self.table = table
    }

    public var wantsHelp: Bool { remaining.contains("--help") || remaining.contains("-h") }

    /// The row of `name`, which must be a value option (or a flag, with `flag`) of the table: a command that
    /// asks for another has a bug, and stops here rather than take an option its help does not show.
    private mutating func row(_ name: String, flag: Bool = false) -> CommandOption {
        guard let row = table.option(named: name), (row.value == nil) == flag else {
            preconditionFailure("'\(command)' parses --\(name) as a \(flag ? "flag" : "value option"), which its option table does not declare")
        }
        asked.insert(name)
        return row
    }

    /// Removes and returns the value of `--name VALUE` or `--name=VALUE`, if present, checked against the row's
    /// allowed values (whichever accessor takes it). Given twice is a usage error that says so (which of two
    /// values was meant is not ours to guess).
    public mutating func option(_ name: String) throws -> String? {
        let row = row(name)
        guard let first = try take(name) else { return nil }
        if let second = try take(name) {
            throw CommandError("--\(name) given twice (\(Shown.quoted(first)) and \(Shown.quoted(second))): give it once", status: 2)
        }
        switch row.allowed {
        case nil:
            break
        case let .words(words)?:
            guard words.contains(first) else { throw refusal(row, got: Shown.quoted(first)) }
        case let .numbers(range, _)?:
            let v = try number(name, first)
            guard range.contains(v) else { throw refusal(row, got: Self.shown(v)) }
        case let .wholeNumbers(range)?:
            guard let v = Int(first), range.contains(v) else { throw refusal(row, got: Shown.quoted(first)) }
        }
        return first
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

    /// A decimal number, inside the row's range when it has one (e.g. a duration > 0).
    public mutating func double(_ name: String) throws -> Double? {
        try option(name).map { try number(name, $0) }
    }

    /// A whole number inside the row's range (a count of 1.5 is a typo, not 1).
    public mutating func integer(_ name: String) throws -> Int? {
        guard case .wholeNumbers? = row(name).allowed else {
            preconditionFailure("'\(command)' parses --\(name) as a whole number, but its row gives no range")
        }
        return try option(name).map { Int($0)! }  // checked by `option`
    }

    private func number(_ name: String, _ s: String) throws -> Double {
        guard let v = CommandLineNumber.parse(s) else {
            throw CommandError("--\(name) expects a decimal number such as 2 or 0.5, got \(Shown.quoted(s))", status: 2)
        }
        return v
    }

    private func refusal(_ row: CommandOption, got: String) -> CommandError {
        CommandError("--\(row.name) must be \(row.allowed?.said ?? "?"), got \(got)", status: 2)
    }

    private static func shown(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)" }

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

    /// Whether `--name` is given; given twice it is the same flag.
    public mutating func flag(_ name: String) -> Bool {
        _ = row(name, flag: true)
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
