import Formats
import Testing
import TestSupport

/// `watch` on a path that is no socket or where nothing serves a stream, and its usage errors.
@Suite struct WatchCommandTests: InProcessCommands {
    typealias P = HeadtrackProcess

    // Once `watch --socket /tmp` said "nothing is serving /tmp (left over from a headtrack that stopped)".
    @Test func watchSaysWhatThePathIsWhenItIsNoSocket() throws {
        let dir = temporaryDirectory("newuser")
        let asDirectory = P.run(["watch", "--socket", dir])
        #expect(asDirectory.stderr.contains("\(dir) is a directory, not a socket") && !asDirectory.stderr.contains("left over"),
                "\(asDirectory.stderr)")
        try FileIO.writeAtomically(dir + "/plain", [0x41])
        let plain = P.run(["watch", "--socket", dir + "/plain"])
        #expect(plain.stderr.contains("is a regular file, not a socket"), "\(plain.stderr)")
        #expect(asDirectory.status == 2 && plain.status == 2)
    }

    /// With nothing at the path, watch names every command that can serve a stream, `replay --stream` too.
    @Test func watchWithoutAStreamNamesEveryCommandThatServesOne() {
        let r = HeadtrackProcess.run(["watch", "--socket", temporaryPath("absent.sock")])
        #expect(r.status != 0)
        for command in ["run --simulated", "demo", "replay TRACE --stream"] {
            #expect(r.stderr.contains(command), "\(command): \(r.stderr)")
        }
    }

    @Test func watchWithoutAStreamIsAClearError() {
        #expect(run(["watch", "--socket", "/tmp/headtrack-no-such-stream.sock"]) == 1)
        #expect(run(["watch", "--bogus"]) == 2)
        // sun_path holds 107 bytes and a NUL: a longer path is a usage error, as for the server's --socket.
        #expect(run(["watch", "--socket", "/tmp/" + String(repeating: "s", count: 120)]) == 2)
        #expect(run(["watch", "--socket", ""]) == 2)
    }
}
