import Testing

/// The note `replay` and `eval gestures` print for a recording whose frame line names its mount (`WornMountNote`).
@Suite struct WornMountNoteTests {
    typealias P = HeadtrackProcess

    /// A recording whose frame line says how it was worn, replayed without --mount: the user is told which
    /// --mount it names (the shared data README's -x,z,y), and nothing about the run changes.
    @Test func aRecordingsStatedMountIsSuggestedNotApplied() {
        let fixtures = P.repository + "/Tests/GesturesTests/Fixtures"
        let without = P.run(["replay", fixtures + "/st26_nod.csv"])
        #expect(without.status == 0)
        #expect(without.stderr.contains("the frame line of st26_nod.csv says it was worn as mount -x,z,y; give --mount=-x,z,y"))
        #expect(!without.stdout.contains("note:"))
        let piped = P.run(["replay", "-"], stdin: fixtures + "/st26_nod.csv")
        #expect(piped.stderr.contains("the frame line of standard input says it was worn as mount -x,z,y"))
        let with = P.run(["replay", fixtures + "/st26_nod.csv", "--mount=-x,z,y"])
        #expect(with.status == 0)
        #expect(!with.stderr.contains("note:"))
        let eval = P.run(["eval", "gestures", fixtures])
        #expect(eval.status == 0)
        #expect(eval.stderr.contains("the frame lines of st26_nod.csv, st26_shake.csv, st26_stationary.csv and 2 more say they were worn as mount -x,z,y"))
        // The table is the one a run without a mount gives: the note only suggests.
        let evalWith = P.run(["eval", "gestures", fixtures, "--mount=-x,z,y"])
        #expect(!evalWith.stderr.contains("note:"))
        #expect(eval.stdout.hasPrefix("gestures: detector default, mount none,"))
        #expect(evalWith.stdout.hasPrefix("gestures: detector default, mount -x,z,y,"))
    }
}
