import Testing
import Service

/// The lines `Log` writes: the journal's priority prefix on every line, none on a terminal.
@Suite struct LogTests {
    @Test func journalPrefixesEveryLine() {
        #expect(Log.line("t=1.00s fault: x", .warning, journal: true) == "<4>t=1.00s fault: x")
        #expect(Log.line("a\nb", .info, journal: true) == "<6>a\n<6>b")
        #expect(Log.line("t=1.00s fault: x", .warning, journal: false) == "t=1.00s fault: x")
    }
}
