#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Commands
import Service

/// Under systemd the service's log lines go to a journal socket from the loop thread; made non-blocking, a
/// journal that takes nothing must cost the loop a dropped, counted line, never a stalled write. The truth is
/// the socket itself: a peer that never reads, whose buffer is filled first.
@Suite(.serialized) struct NonBlockingOutputTests {
    @Test func aLineTheReaderCannotTakeIsDroppedAndCountedInsteadOfBlocking() throws {
        var fds: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(Console.neverBlock(fds[0], true))
        // Fill the pair's buffers until the kernel refuses more (the peer, fds[1], never reads).
        let chunk = [UInt8](repeating: 0x41, count: 4096)
        var filled = 0
        while filled < 64 << 20 {
            let n = chunk.withUnsafeBytes { Glibc.write(fds[0], $0.baseAddress!, $0.count) }
            if n < 0 { break }
            filled += n
        }
        #expect(errno == EAGAIN || errno == EWOULDBLOCK, "the buffer filled: \(filled) bytes")
        let before = Console.droppedLines
        Console.write(fds[0], "t=12.00s gesture: nod\n")     // returns: a blocking write would hang here
        #expect(Console.droppedLines == before + 1)
        // Blocking again, as the closing lines need: the flag is really cleared.
        #expect(Console.neverBlock(fds[0], false))
        #expect(fcntl(fds[0], F_GETFL) & O_NONBLOCK == 0)
    }

    @Test func aClosedDescriptorIsReportedNotChanged() {
        #expect(!Console.neverBlock(-1, true))
    }

    @Test func onlyTheSocketJournalStreamNamesCountsAsTheJournal() throws {
        var fds: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var st = stat()
        #expect(fstat(fds[0], &st) == 0)
        let named = "\(UInt64(st.st_dev)):\(UInt64(st.st_ino))"
        #expect(Console.isJournalStream(fds[0], environment: named))
        #expect(!Console.isJournalStream(fds[1], environment: named), "the other end is another inode")
        #expect(!Console.isJournalStream(fds[0], environment: nil))
        #expect(!Console.isJournalStream(fds[0], environment: "garbage"))
        // A pipe with its own numbers in the variable is still no socket: never made non-blocking.
        var p: [Int32] = [-1, -1]
        #expect(pipe(&p) == 0)
        defer { close(p[0]); close(p[1]) }
        #expect(fstat(p[1], &st) == 0)
        #expect(!Console.isJournalStream(p[1], environment: "\(UInt64(st.st_dev)):\(UInt64(st.st_ino))"))
    }
}
