import Formats
import Testing
import TestSupport

/// `watch` through the built binary, on a path that is no socket.
@Suite struct WatchCommandTests {
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
}
