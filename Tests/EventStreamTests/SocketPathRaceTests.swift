#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import Testing
@testable import Formats
@testable import EventStream

/// What another local user can plant or swap beside the socket, in a directory anyone may write: the server
/// never changes a file a link points to, and a lock that is not a regular file is refused at once.
struct SocketPathRaceTests {
    static func line(_ s: StaticString) -> LineBuffer {
        let b = LineBuffer(capacity: 64)
        b.literal(s)
        return b
    }

    static func directory(_ name: String) -> String {
        let d = "/tmp/headtrack-race-\(getpid())-\(name)"
        mkdir(d, 0o777)
        chmod(d, 0o777)  // not sticky: any user may rename what is in it
        return d
    }

    static func mode(_ path: String) -> mode_t {
        var st = stat()
        return stat(path, &st) == 0 ? st.st_mode & 0o7777 : 0
    }

    /// A thread swaps the server's staging name for a symlink to a 0600 file as fast as it can while servers
    /// start and stop: the file keeps its mode (a chmod through the name made it 0660 in most starts).
    @Test func aSymlinkSwappedInWhileTheSocketIsSetUpIsNeverFollowed() throws {
        let dir = Self.directory("swap")
        let path = dir + "/events.sock"
        let victim = dir + "/victim"
        defer { for name in ["victim", "link", "events.sock", "events.sock.lock"] { unlink(dir + "/" + name) }; rmdir(dir) }
        let f = open(victim, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        close(f)
        chmod(victim, 0o600)
        final class Flag: @unchecked Sendable { var stop = false; let done = DispatchSemaphore(value: 0) }
        let flag = Flag()
        let staging = path + ".new\(getpid())"
        let link = dir + "/link"
        let attacker = Thread {
            while !flag.stop {
                _ = symlink(victim, link)
                _ = rename(link, staging)  // replaced the bound socket file; a directory stays
            }
            flag.done.signal()
        }
        attacker.start()
        var started = 0
        for _ in 0..<60 {
            if let server = try? StreamServer(path: path, hello: Self.line("{}\n")) {
                started += 1
                server.stop()
            }
            unlink(path)  // a symlink renamed into place would refuse the next start
        }
        flag.stop = true
        flag.done.wait()
        #expect(Self.mode(victim) == 0o600, "the victim is now \(String(Self.mode(victim), radix: 8))")
        #expect(started > 0)
    }

    /// A FIFO at the lock's name: refused with what to do, at once, also while someone holds it.
    @Test func aFifoAtTheLockPathIsRefused() throws {
        let dir = Self.directory("fifo")
        let path = dir + "/events.sock"
        mkfifo(path + ".lock", 0o666)
        defer { unlink(path + ".lock"); unlink(path); rmdir(dir) }
        let holder = open(path + ".lock", O_RDWR | O_NONBLOCK)
        defer { close(holder) }
        for held in [false, true] {
            if held { #expect(flock(holder, LOCK_EX | LOCK_NB) == 0) }
            do {
                let server = try StreamServer(path: path, hello: Self.line("{}\n"))
                server.stop()
                Issue.record("a FIFO was taken as the lock (held: \(held))")
            } catch {
                #expect(error.message.contains("not a regular file"), "\(error.message)")
                #expect(error.message.contains("rm \(path).lock"), "\(error.message)")
            }
        }
    }
}
