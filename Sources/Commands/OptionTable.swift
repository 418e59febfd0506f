/// One option of a command, declared once: the command's parser takes it only through its row (`Arguments`),
/// and `--help`'s options section, the bash completion, and through the help the man page and the README's
/// usage block are made from the same rows.
public struct CommandOption: Sendable {
    /// On the command line without its dashes ("imu-hz").
    public let name: String
    /// The value's placeholder in the help ("HZ"); nil for a flag.
    public let value: String?
    /// The help text as `--help` shows it, its lines hand-broken (each line after the first starts at the
    /// table's help column; a line's own leading spaces indent it further).
    public let help: String
    /// What a value may be, when not anything: parsing refuses the rest with a message that says what is allowed.
    public let allowed: AllowedValues?

    /// `--name`, on or off.
    public static func flag(_ name: String, _ help: String) -> CommandOption {
        CommandOption(name: name, value: nil, help: help, allowed: nil)
    }

    /// `--name VALUE` (or `--name=VALUE`).
    public static func value(_ name: String, _ placeholder: String, _ help: String, allowed: AllowedValues? = nil) -> CommandOption {
        CommandOption(name: name, value: placeholder, help: help, allowed: allowed)
    }

    /// "--name VALUE", as the help's options section and usage lines write it.
    public var entry: String { "--" + name + (value.map { " " + $0 } ?? "") }
}

/// The values an option takes, and how a refusal says so: "--NAME must be SAID, got VALUE".
public enum AllowedValues: Sendable {
    /// A decimal number in the range (`CommandLineNumber`: plain decimals only).
    case numbers(ClosedRange<Double>, said: String)
    /// A whole number in the range: a count of 1.5 is a typo, not 1.
    case wholeNumbers(ClosedRange<Int>)
    /// One of these words.
    case words([String])

    /// A duration in seconds: at least a millisecond and at most a year (a loop bound, so never absurd).
    public static let seconds = AllowedValues.numbers(1e-3...(366 * 86400), said: "a time in seconds from 0.001 up to a year (31622400)")

    /// How the refusal names what is allowed.
    public var said: String {
        switch self {
        case let .numbers(_, said): return said
        case let .wholeNumbers(range): return "a whole number \(range.lowerBound)...\(range.upperBound)"
        case let .words(words): return words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
        }
    }
}

/// A command's options, in the order `--help` lists them.
public struct OptionTable: Sendable {
    /// The column the help texts start at (the options sections are laid out by hand, so each keeps its own).
    public let helpColumn: Int
    public let options: [CommandOption]

    public init(helpColumn: Int, _ options: [CommandOption]) {
        self.helpColumn = helpColumn
        self.options = options
        precondition(Set(options.map { $0.name }).count == options.count, "an option is declared twice")
    }

    /// A command with no options of its own.
    public static let none = OptionTable(helpColumn: 0, [])

    public func option(named name: String) -> CommandOption? { options.first { $0.name == name } }

    /// "--name" of every row, for the completion.
    public var words: [String] { options.map { "--" + $0.name } }

    /// The help: `intro` (usage and description, by hand), the options section made from the rows, and
    /// `outro` (examples, notes) when there is one.
    public func help(_ intro: String, outro: String? = nil) -> String {
        intro + "\n\noptions:\n" + section + (outro.map { "\n\n" + $0 } ?? "")
    }

    /// The options section's lines: "  --name VALUE" padded to the help column and the first line of its
    /// help, or on a line of its own when it reaches the column; further help lines at the column.
    public var section: String {
        let indent = String(repeating: " ", count: helpColumn)
        var lines: [String] = []
        for option in options {
            let head = "  " + option.entry
            let help = option.help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if head.count < helpColumn {
                lines.append(head + String(repeating: " ", count: helpColumn - head.count) + help[0])
            } else {
                lines.append(head)
                lines.append(indent + help[0])
            }
            lines += help.dropFirst().map { indent + $0 }
        }
        return lines.joined(separator: "\n")
    }
}
