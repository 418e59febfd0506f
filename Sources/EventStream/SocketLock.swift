import LibC

/// The lock that makes one headtrack the only one setting up and serving a socket path: `PATH.lock` beside the
/// socket, locked with flock for as long as the server lives, holding the server's pid for the one that loses.
/// Taken before the socket path is touched, so two daemons started at the same instant cannot both find the
/// path free, unlink each other's socket and both listen. The holder removes the file when it stops; so a
/// process that locked a file already removed (it opened it just before) holds nothing, sees that the path
/// no longer names its file, and tries again.
final class SocketLock {
    let path: String
    private var fd: Int32

    /// Locks `socketPath + ".lock"`, or throws with who holds it. `directoryHint` says what to do when the
    /// directory is missing.
    init(socketPath: String, directoryHint: String) throws(StreamSocketError) {
        path = socketPath + ".lock"
        fd = -1
        for _ in 0..<100 {
            // Non-blocking, and nothing but a regular file: a FIFO planted at this name hung the daemon in
            // `holder`'s read, and a device would be written to.
            fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644)
            guard fd >= 0 else {
                let e = errno
                let hint = e == ENOENT ? "its directory does not exist: \(directoryHint)"
                    : e == EACCES ? "no permission to create it there: give --socket PATH in a directory you may write"
                    : "give another --socket PATH"
                throw StreamSocketError(message: "cannot create the event socket \(socketPath): \(String(cString: strerror(e))) (\(path)); \(hint)")
            }
            guard SocketLock.isRegularFile(fd) else {
                close(fd)
                fd = -1
                throw StreamSocketError(message: "cannot lock \(path): it is not a regular file (planted there?); "
                    + "remove it (rm \(path)) or give --socket PATH in a directory only headtrack may write")
            }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                let e = errno
                close(fd)
                fd = -1
                if e == EWOULDBLOCK {
                    let pid = SocketLock.holder(path).map { " (pid \($0))" } ?? ""
                    throw StreamSocketError(message: "another headtrack is already serving \(socketPath)\(pid): stop it first "
                        + "(systemctl stop headtrack) or give another --socket PATH")
                }
                throw StreamSocketError(message: "cannot lock \(path): \(String(cString: strerror(e)))")
            }
            if SocketLock.pathNames(fd, path) { break }
            close(fd)  // the previous holder removed this file after we opened it: lock the one at the path now
            fd = -1
        }
        guard fd >= 0 else { throw StreamSocketError(message: "cannot lock \(path): it keeps being replaced") }
        // Our pid, for the one that loses; written whole in one call so a reader sees none or all of it.
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    private static func isRegularFile(_ fd: Int32) -> Bool {
        var st = stat()
        return fstat(fd, &st) == 0 && st.st_mode & S_IFMT == S_IFREG
    }

    /// Whether `path` still names the file open on `fd`.
    private static func pathNames(_ fd: Int32, _ path: String) -> Bool {
        var open = stat(), named = stat()
        return fstat(fd, &open) == 0 && lstat(path, &named) == 0 && open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    deinit { release() }

    /// Lets the next server in (the socket file is gone by then): the file is removed while still locked.
    func release() {
        guard fd >= 0 else { return }
        unlink(path)
        close(fd)
        fd = -1
    }

    /// The pid written in the lock file by the process that holds it. The winner writes it just after
    /// locking, so for a moment the file may be missing, empty or still name the previous (exited) holder:
    /// wait for a live pid, up to a second.
    static func holder(_ lockPath: String) -> Int32? {
        for _ in 0..<200 {
            if let pid = readPid(lockPath), pid > 0, kill(pid, 0) == 0 || errno == EPERM { return pid }
            usleep(5_000)
        }
        return nil
    }

    private static func readPid(_ lockPath: String) -> Int32? {
        let f = open(lockPath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard f >= 0 else { return nil }
        defer { close(f) }
        guard isRegularFile(f) else { return nil }
        var buffer = [UInt8](repeating: 0, count: 16)
        let n = buffer.withUnsafeMutableBytes { read(f, $0.baseAddress, $0.count) }
        guard n > 1, buffer[n - 1] == UInt8(ascii: "\n") else { return nil }
        return Int32(String(decoding: buffer[0..<(n - 1)], as: UTF8.self))
    }
}
