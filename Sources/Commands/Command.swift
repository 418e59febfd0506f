#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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
}

extension Command {
    public static var dispatchesSubcommands: Bool { false }
}

/// A user-facing failure: printed as "headtrack: MESSAGE" with exit status `status`.
public struct CommandError: Error, CustomStringConvertible {
    public var message: String
    public var status: Int32
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

    /// Removes and returns the value of `--name VALUE` or `--name=VALUE`, if present.
    public mutating func option(_ name: String) throws -> String? {
        let flag = "--" + name
        for (i, a) in remaining.enumerated() {
            if a == flag {
                guard i + 1 < remaining.count else { throw CommandError("\(flag) needs a value (see headtrack \(command) --help)", status: 2) }
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

    /// All values of a repeatable option.
    public mutating func options(_ name: String) throws -> [String] {
        var values: [String] = []
        while let v = try option(name) { values.append(v) }
        return values
    }

    public mutating func double(_ name: String) throws -> Double? {
        guard let s = try option(name) else { return nil }
        guard let v = Double(s), v.isFinite else { throw CommandError("--\(name) expects a number, got '\(s)'", status: 2) }
        return v
    }

    /// A number inside `range` (checked before it becomes a loop bound, a deadline or an Int): `what` says
    /// what the number means in the error ("seconds").
    public mutating func double(_ name: String, in range: ClosedRange<Double>, _ what: String) throws -> Double? {
        guard let v = try double(name) else { return nil }
        guard range.contains(v) else {
            throw CommandError("--\(name) must be between \(fixed(range.lowerBound)) and \(fixed(range.upperBound)) \(what), got \(fixed(v))", status: 2)
        }
        return v
    }

    /// A whole number inside `range`.
    public mutating func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let s = try option(name) else { return nil }
        guard let v = Int(s), range.contains(v) else {
            throw CommandError("--\(name) must be a whole number \(range.lowerBound)...\(range.upperBound), got '\(s)'", status: 2)
        }
        return v
    }

    public mutating func flag(_ name: String) -> Bool {
        if let i = remaining.firstIndex(of: "--" + name) {
            remaining.remove(at: i)
            return true
        }
        return false
    }

    /// Removes and returns the positional arguments; any leftover option is an error.
    public mutating func positionals() throws -> [String] {
        if let unknown = remaining.first(where: { $0.hasPrefix("--") || ($0.hasPrefix("-") && $0.count > 1 && Double($0) == nil) }) {
            throw CommandError("unknown option '\(unknown)' for '\(command)' (see headtrack \(command) --help)", status: 2)
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
            throw CommandError("unexpected argument '\(first)' for '\(command)' (see headtrack \(command) --help)", status: 2)
        }
    }
}

/// A bound as short text: "1000000" rather than "1e+06", "0.01" rather than "0.010000".
private func fixed(_ v: Double) -> String {
    if v == v.rounded() && abs(v) < 1e15 { return String(Int64(v)) }
    return String(v)
}

/// Output helpers that avoid Foundation.
public enum Console {
    public static func out(_ s: String) {
        write(STDOUT_FILENO, s + "\n")
    }
    public static func err(_ s: String) {
        write(STDERR_FILENO, s + "\n")
    }
    public static var isTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    /// Writes all of `s` to a file descriptor, retrying short writes (no stdio buffering to lose on a crash).
    public static func write(_ fd: Int32, _ s: String) {
        var text = s
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 { if errno == EINTR { continue }; return }
                offset += n
            }
        }
    }
}
