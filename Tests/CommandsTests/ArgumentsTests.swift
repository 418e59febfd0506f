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

    @Test func argumentParser() throws {
        var a = Arguments(["--speed=4", "trace.csv", "--mount", "-x,z,y", "--json"], command: "t")
        #expect(try a.double("speed") == 4)
        #expect(try a.option("mount") == "-x,z,y")
        let json = a.flag("json")
        #expect(json)
        #expect(try a.positionals() == ["trace.csv"])
    }
}
