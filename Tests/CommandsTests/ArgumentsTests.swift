import Testing

/// The options every command parses (`Arguments`), through the built binary.
@Suite struct ArgumentsTests {
    typealias P = HeadtrackProcess

    // a repeated option was "unknown option".
    @Test func aRepeatedOptionIsSaidToBeGivenTwice() {
        let twice = P.run(["demo", "--speed", "1", "--speed", "2"])
        #expect(twice.status == 2 && twice.stderr.contains("--speed given twice") && !twice.stderr.contains("unknown option"),
                "\(twice.stderr)")
        let flag = P.run(["watch", "--json", "--json", "--socket", "/nonexistent/x.sock"])
        #expect(!flag.stderr.contains("unknown option"), "a flag given twice is the flag: \(flag.stderr)")
        #expect(flag.status == 1)
    }
}
