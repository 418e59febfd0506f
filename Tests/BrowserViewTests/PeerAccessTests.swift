#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import BrowserView

/// Who is at the far end of a loopback connection, from the kernel's socket table, and whether the socket's
/// mode lets that user in (the view passes the stream on only then).
struct PeerAccessTests {
    static let table = """
          sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 0100007F:2224 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1546449 1
           1: 0100007F:D9C0 0100007F:2224 01 00000000:00000000 00:00000000 00000000 65534        0 1546452 1
           2: 0100007F:2224 0100007F:D9C0 01 00000000:00000000 00:00000000 00000000     0        0 1546453 1
        """

    @Test func theClientEndsLineNamesItsOwner() {
        #expect(PeerAccess.uid(in: Self.table, client: "0100007F:D9C0", server: "0100007F:2224") == 65534)
        #expect(PeerAccess.uid(in: Self.table, client: "0100007F:D9C1", server: "0100007F:2224") == nil)
    }

    /// The kernel's rule for connecting to a socket file: write permission for owner, group or others.
    @Test func onlyUsersTheSocketLetsInMayConnect() {
        let path = "/tmp/headtrack-peer-\(getpid())"
        let f = open(path, O_WRONLY | O_CREAT, 0o600)
        close(f)
        defer { unlink(path) }
        let nobody: uid_t = 65534
        chmod(path, 0o600)
        #expect(PeerAccess.mayConnect(uid: geteuid(), to: path))
        #expect(!PeerAccess.mayConnect(uid: nobody, to: path) || geteuid() == nobody)
        chmod(path, 0o602)
        #expect(PeerAccess.mayConnect(uid: nobody, to: path))
        #expect(!PeerAccess.mayConnect(uid: nobody, to: path + ".missing"))
    }
}
