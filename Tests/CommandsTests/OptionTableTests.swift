import Testing
@testable import Commands
@testable import LabCommands

/// Each command's options are declared once, in its `OptionTable`: its parser takes exactly the table's options,
/// its `--help` shows exactly them, values outside a row's allowed ones are refused, and the completion offers them.
@Suite struct OptionTableTests {
    /// A command line with options of its own, as `Arguments` names it ("run", "eval gestures").
    struct Parsed {
        let command: String
        let help: String
        let table: OptionTable
        let run: (inout Arguments) throws -> Int32
    }

    static var all: [Parsed] {
        (HeadtrackCommand.commands + LabCommand.commands).filter { !$0.dispatchesSubcommands }.map {
            Parsed(command: $0.name, help: $0.help, table: $0.options, run: $0.run)
        } + EvalCommand.topics.map { Parsed(command: "eval \($0.topic)", help: $0.help, table: $0.options, run: $0.run) }
    }

    /// What each branch of a command's parsing needs to be reached (`run --simulated` takes the wearer's
    /// options; --cpu and --priority need --realtime); every other command parses all its options on one path.
    static func openers(_ command: String) -> [[String]] {
        switch command {
        case "run": return [["--realtime"], ["--simulated", "--realtime"]]
        case "bench": return [["--realtime"]]
        case "record": return [["--out", "/tmp/option-table-test.csv"]]  // checked, never written: the parse fails
        case "eval gestures": return [[], ["--cohort", "1"]]
        default: return [[]]
        }
    }

    /// Runs the command's parser on `words` in this process; the error it ends with (it must end with one:
    /// each test line ends with an option no command has, so no command gets to its work).
    static func failure(_ c: Parsed, _ words: [String]) -> (error: CommandError?, asked: Set<String>) {
        var arguments = Arguments(words, command: c.command, options: c.table)
        do {
            _ = try c.run(&arguments)
            return (nil, arguments.asked)
        } catch {
            return (error as? CommandError, arguments.asked)
        }
    }

    static let unknown = "--no-such-option"

    static func unknownMessage(_ command: String) -> String {
        "unknown option '\(unknown)' for '\(command)' (see headtrack \(command) --help)"
    }

    @Test func theParserAsksForEveryOptionOfItsTableAndNoOther() {
        #expect(Self.all.count == 13)
        for c in Self.all {
            var asked = Set<String>()
            for opener in Self.openers(c.command) {
                let (error, names) = Self.failure(c, opener + [Self.unknown])
                // The parse got to its end: the unknown option is what failed, named with the command's --help.
                #expect(error?.message == Self.unknownMessage(c.command) && error?.status == 2, "\(c.command) \(opener): \(String(describing: error))")
                asked.formUnion(names)
            }
            #expect(asked == Set(c.table.options.map { $0.name }), "\(c.command)")
        }
    }

    @Test func theHelpShowsExactlyTheTablesOptions() throws {
        for c in Self.all {
            let lines = c.help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            // The options section as a reader finds it: the entries under "options:" up to the next blank line.
            let start = try #require(lines.firstIndex(of: "options:"), "\(c.command)")
            let section = lines[(start + 1)...].prefix { !$0.isEmpty }
            let entries = section.filter { $0.hasPrefix("  --") }
            #expect(entries.map { String($0.dropFirst(2).prefix { $0 != " " }) } == c.table.options.map { "--" + $0.name }, "\(c.command)")
            for (line, row) in zip(entries, c.table.options) {
                #expect(line.hasPrefix("  " + row.entry), "\(c.command): \(line)")
            }
            // The usage forms (up to the description) name only the table's options, and all of them but one:
            // eval attitude's forms leave out --no-auto-calibration (its help is kept as it was).
            let usage = lines.prefix { $0.isEmpty || $0.hasPrefix("usage:") || $0.hasPrefix("also:") || $0.hasPrefix(" ") }
            let named = Set(Self.optionWords(usage.joined(separator: " "))), declared = Set(c.table.options.map { "--" + $0.name })
            #expect(named.isSubset(of: declared), "\(c.command): \(named.subtracting(declared))")
            #expect(declared.subtracting(named) == (c.command == "eval attitude" ? ["--no-auto-calibration"] : []), "\(c.command)")
        }
    }

    /// The `--words` of `text`, without a trailing "...".
    static func optionWords(_ text: String) -> [String] {
        text.split { !($0 == "-" || $0.isLetter || $0.isNumber) }.map(String.init).filter { $0.hasPrefix("--") && $0.count > 2 }
    }

    @Test func anUnknownOptionFailsNamingTheCommandsHelp() {
        let daemon = HeadtrackProcess.run(["watch", Self.unknown])
        #expect(daemon.status == 2 && daemon.stderr == "headtrack watch: " + Self.unknownMessage("watch") + "\n", "\(daemon.stderr)")
        let lab = HeadtrackProcess.run(executable: HeadtrackProcess.binary + "-lab", ["eval", "attitude", Self.unknown])
        #expect(lab.status == 2 && lab.stderr == "headtrack-lab eval attitude: unknown option '\(Self.unknown)' for 'eval attitude' "
            + "(see headtrack-lab eval attitude --help)\n", "\(lab.stderr)")
    }

    @Test func valuesOutsideARowsAllowedOnesAreRefused() {
        var checked = 0
        for c in Self.all {
            for row in c.table.options {
                guard let allowed = row.allowed else { continue }
                let (outside, inside): (String, String)
                switch allowed {
                case let .numbers(range, _): (outside, inside) = (Self.plain(range.upperBound * 2 + 1), Self.plain(range.lowerBound))
                case let .wholeNumbers(range): (outside, inside) = (String(range.upperBound + 1), String(range.lowerBound))
                case let .words(words): (outside, inside) = ("no-such-word", words[0])
                }
                let opener = Self.openers(c.command).first { Self.failure(c, $0 + [Self.unknown]).asked.contains(row.name) } ?? []
                let refused = Self.failure(c, opener + ["--" + row.name, outside, Self.unknown]).error
                #expect(refused?.status == 2 && refused?.message.hasPrefix("--\(row.name) must be \(allowed.said), got ") == true
                        && refused?.message.contains(outside) == true, "\(c.command) --\(row.name) \(outside): \(String(describing: refused))")
                // An allowed value is taken: the parse goes on to the unknown option (on some branch: eval gestures
                // refuses --windows without --cohort).
                let taken = Self.openers(c.command).map { Self.failure(c, $0 + ["--" + row.name, inside, Self.unknown]).error?.message }
                #expect(taken.contains(Self.unknownMessage(c.command)), "\(c.command) --\(row.name) \(inside): \(taken)")
                checked += 1
            }
        }
        #expect(checked >= 20)
    }

    /// A number as a user types it: 63244801, 0.001.
    static func plain(_ v: Double) -> String { v == v.rounded() ? String(Int64(v)) : String(v) }

    @Test func theCompletionOffersEachCommandsTable() {
        for (tool, commands) in [(HeadtrackCommand.tool, HeadtrackCommand.commands), (LabCommand.tool, LabCommand.commands)] {
            let script = HelpDocuments.bashCompletion(tool).split(separator: "\n")
            for c in commands {
                let words = c.dispatchesSubcommands
                    ? c.documentedSubcommands.map { $0.name } + c.documentedSubcommands.flatMap { $0.options.words }
                    : c.options.words
                let expected = "        \(c.name)) words=\"\(HelpDocuments.unique(words + ["--help"]).joined(separator: " "))\" ;;"
                #expect(script.contains { $0 == expected }, "\(c.name)")
            }
        }
    }
}
