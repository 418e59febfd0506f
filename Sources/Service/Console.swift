import LibC
import Hardware

/// Output helpers that avoid Foundation.
public enum Console {
    public static func out(_ s: String) {
        write(STDOUT_FILENO, s + "\n")
    }
    public static func err(_ s: String) {
        write(STDERR_FILENO, s + "\n")
    }
    public static var isTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    /// Prints a line the service says, on the stream it names.
    public static func say(_ line: ServiceLine) {
        switch line {
        case let .out(s): out(s)
        case let .err(s): err(s)
        }
    }
    /// Writes all of `s` to a file descriptor, retrying short writes (no stdio buffering to lose on a crash).
    /// On a descriptor made non-blocking (`neverBlock`) a line the reader cannot take now is dropped, the
    /// rest of it with it, and counted in `droppedLines`: a stalled journal must not stop the tracking loop.
    public static func write(_ fd: Int32, _ s: String) {
        var text = s
        text.withUTF8 { write(fd, $0) }
    }

    /// The same for bytes already formatted (a `LineBuffer`'s), without building a String.
    public static func write(_ fd: Int32, _ buffer: UnsafeBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
            let n = LibC.write(fd, base + offset, buffer.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { droppedLines += 1 }
                // Nobody reads any more (`run … | head`): with SIGPIPE ignored, stop the clean way instead of dying.
                if errno == EPIPE && StopSignals.brokenOutputStops && (fd == STDOUT_FILENO || fd == STDERR_FILENO) {
                    StopSignals.request(SIGPIPE)
                }
                return
            }
            offset += n
        }
    }

    /// Lines (or their rests) dropped because a non-blocking output could not take them. Written and read
    /// by the one thread that logs (the loop thread of `run`).
    nonisolated(unsafe) public static var droppedLines = 0

    /// Makes `fd` non-blocking (true) or blocking again (false); false when it is not open.
    @discardableResult
    public static func neverBlock(_ fd: Int32, _ on: Bool) -> Bool {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0 else { return false }
        return fcntl(fd, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK) == 0
    }

    /// The same for those of stdout and stderr that are the journal's stream socket (see `isJournalStream`);
    /// true when at least one was changed. A terminal or a pipe is never touched: a terminal's flag is shared
    /// with the shell, which a non-blocking stdin would break if this process were killed before restoring it.
    @discardableResult
    public static func outputsNeverBlock(_ on: Bool) -> Bool {
        var changed = false
        for fd in [STDOUT_FILENO, STDERR_FILENO] where isJournalStream(fd) { changed = neverBlock(fd, on) || changed }
        return changed
    }

    /// Whether `fd` is the journal connection systemd made: a socket whose device and inode are the ones
    /// $JOURNAL_STREAM names ("DEV:INODE", what systemd.exec documents for exactly this check).
    public static func isJournalStream(_ fd: Int32, environment: String? = getenv("JOURNAL_STREAM").map { String(cString: $0) }) -> Bool {
        guard let value = environment else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let dev = UInt64(parts[0]), let ino = UInt64(parts[1]) else { return false }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFSOCK else { return false }
        return UInt64(st.st_dev) == dev && UInt64(st.st_ino) == ino
    }
}
