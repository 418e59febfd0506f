import Testing
@testable import Commands

/// The options every command parses (`Arguments`): parsed in place, and a repeated one through the built binary.
@Suite struct ArgumentsTests {
    typealias P = HeadtrackProcess

    // Once a repeated option was "unknown option".
    @Test func aRepeatedOptionIsSaidToBeGivenTwice() {
        let twice = P.run(["demo", "--speed", "1", "--speed", "2"])
        #expect(twice.status == 2 && twice.stderr.contains("--speed given twice") && !twice.stderr.contains("unknown option"),
                "\(twice.stderr)")
        let flag = P.run(["watch", "--json", "--json", "--socket", "/nonexistent/x.sock"])
        #expect(!flag.stderr.contains("unknown option"), "a flag given twice is the flag: \(flag.stderr)")
        #expect(flag.status == 1)
    }

    static let table = OptionTable(helpColumn: 18, [
        .value("speed", "N", "how fast"),
        .value("mount", "F,L,U", "how worn"),
        .flag("json", "print JSON"),
        .value("port", "N", "a port", allowed: .wholeNumbers(0...65535)),
        .value("answer", "G", "nod or shake", allowed: .words(["nod", "shake"])),
        .value("duration", "S", "how long", allowed: .seconds),
    ])

    @Test func argumentParser() throws {
        var a = Arguments(["--speed=4", "trace.csv", "--mount", "-x,z,y", "--json"], command: "t", options: Self.table)
        #expect(try a.double("speed") == 4)
        #expect(try a.option("mount") == "-x,z,y")
        let json = a.flag("json")
        #expect(json)
        #expect(try a.positionals() == ["trace.csv"])
    }

    /// Each kind of allowed values refuses with a message that says what is allowed and what was given.
    @Test func aValueOutsideItsRowIsRefusedSayingWhatIsAllowed() throws {
        func refusal(_ words: [String], _ take: (inout Arguments) throws -> Void) -> String? {
            var a = Arguments(words, command: "t", options: Self.table)
            do { try take(&a); return nil } catch { return (error as? CommandError).map { "\($0.status) \($0.message)" } }
        }
        #expect(refusal(["--port", "70000"]) { _ = try $0.integer("port") } == "2 --port must be a whole number 0...65535, got '70000'")
        #expect(refusal(["--port", "1.5"]) { _ = try $0.integer("port") } == "2 --port must be a whole number 0...65535, got '1.5'")
        #expect(refusal(["--answer=maybe"]) { _ = try $0.option("answer") } == "2 --answer must be nod or shake, got 'maybe'")
        #expect(refusal(["--duration", "0"]) { _ = try $0.double("duration") }
                == "2 --duration must be a time in seconds from 0.001 up to a year (31622400), got 0")
        // Whichever accessor takes it: the row's range holds for the plain string too.
        #expect(refusal(["--duration", "1e9"]) { _ = try $0.option("duration") }
                == "2 --duration must be a time in seconds from 0.001 up to a year (31622400), got 1000000000")
        #expect(refusal(["--duration", "soon"]) { _ = try $0.double("duration") }
                == "2 --duration expects a decimal number such as 2 or 0.5, got 'soon'")
        var inside = Arguments(["--port", "8080", "--answer", "nod", "--duration", "2.5"], command: "t", options: Self.table)
        #expect(try inside.integer("port") == 8080 && inside.option("answer") == "nod" && inside.double("duration") == 2.5)
    }

    /// The options section as the hand-made helps lay it out: help at the column, on the next line when the
    /// option reaches it, further lines (and their own indentation) at the column.
    @Test func theOptionsSectionIsLaidOutAtItsColumn() {
        let table = OptionTable(helpColumn: 18, [
            .value("plot", "OUT.svg", "draw it"),
            .value("calibration", "FILE", "apply it\nto every sample"),
            .flag("loop", "again and again\n  (until stopped)"),
        ])
        let twelve = String(repeating: " ", count: 12)
        #expect(table.section == "  --plot OUT.svg  draw it\n"
            + "  --calibration FILE\n"
            + "      " + twelve + "apply it\n"
            + "      " + twelve + "to every sample\n"
            + "  --loop          again and again\n"
            + "      " + twelve + "  (until stopped)")
        #expect(table.help("usage: t [--loop]", outro: "example:\n  t --loop") == "usage: t [--loop]\n\noptions:\n" + table.section + "\n\nexample:\n  t --loop")
    }
}
