import LibC

/// Why the stream socket could not be set up: what happened, then what to do.
public struct StreamSocketError: Error, CustomStringConvertible, Equatable {
    public var message: String
    /// The errno of the call that failed, where one did (0 for a bad path).
    public var errno: Int32 = 0
    public var description: String { message }
}

/// The listening AF_UNIX stream socket of the event stream: non-blocking, mode 0660, group `headtrack` where
/// that group exists. A stale socket file left by a crash is replaced; a socket someone still answers on is
/// refused, so a second headtrack never steals the first one's clients.
public final class UnixListener {
    let path: String
    private(set) var fd: Int32 = -1
    /// Device and inode of the socket file we bound, so `close` removes only our own file.
    private var identity: (dev_t, ino_t)? = nil

    /// The group that may read the stream; an app joins it to connect.
    static let groupName = "headtrack"

    /// Held from before the path is touched until the socket file is removed again.
    private var lock: SocketLock?

    /// Said when the socket's directory does not exist, when the caller knows nothing better.
    public static let defaultDirectoryHint = "give --socket PATH in a directory that exists"

    init(path: String, directoryHint: String = UnixListener.defaultDirectoryHint) throws(StreamSocketError) {
        self.path = path
        var address = try UnixListener.address(path)
        // Bound and set up in a directory of this process's own beside the path, then renamed into place: a
        // client never finds the socket with the wrong mode or not yet listening, and no name we change can be
        // swapped for a link by whoever else may write the socket's directory (SocketStaging).
        let stagingPath = path + ".new\(getpid())/s"
        guard var stagingAddress = try? UnixListener.address(stagingPath) else {
            let room = MemoryLayout.size(ofValue: address.sun_path) - 1 - (stagingPath.utf8.count - path.utf8.count)
            throw StreamSocketError(message: "event socket path '\(path)' is \(path.utf8.count) bytes; the server needs at most \(room) "
                + "(room for its staging name beside it): choose a shorter --socket PATH")
        }
        lock = try SocketLock(socketPath: path, directoryHint: directoryHint)
        try UnixListener.removeStale(path, address: &address)
        let staging = try SocketStaging(beside: path)
        defer { staging.remove() }
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw StreamSocketError(message: "cannot create the event socket: \(UnixListener.errorText())") }
        let bound = withUnsafePointer(to: &stagingAddress) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            let e = errno
            let why = String(cString: strerror(e))
            close(fd)
            fd = -1
            let hint = e == ENOENT ? "its directory does not exist: \(directoryHint)"
                : e == EACCES ? "no permission to create it there: give --socket PATH in a directory you may write" : "give another --socket PATH"
            throw StreamSocketError(message: "cannot create the event socket \(path): \(why); \(hint)")
        }
        func fail(_ what: String, _ e: Int32) -> StreamSocketError {
            close(fd)
            fd = -1
            return StreamSocketError(message: "cannot \(what) the event socket \(path): \(String(cString: strerror(e)))", errno: e)
        }
        // The unit runs with a strict UMask, so the mode bind gave the file is not the one we want: set it.
        // Group: `headtrack` where it exists (the unit's Group= already is; a manual root run is not).
        let group = getgrnam(UnixListener.groupName).map { $0.pointee.gr_gid }
        let modeSet = staging.setMode(group: group)
        guard modeSet == 0 else { throw fail("set mode 0660 on", modeSet) }
        guard listen(fd, 16) == 0 else { throw fail("listen on", errno) }
        let moved = staging.move(to: path)
        guard moved == 0 else { throw fail("move into place", moved) }
        var st = stat()
        if lstat(path, &st) == 0 { identity = (st.st_dev, st.st_ino) }
    }

    deinit { stop() }

    /// A new client's fd (non-blocking, close-on-exec), or nil when none is waiting. Never blocks.
    func acceptClient() -> Int32? {
        guard fd >= 0 else { return nil }
        while true {
            let c = accept(fd, nil, nil)
            if c >= 0 {
                // Linux does not pass the listener's O_NONBLOCK on to accepted sockets.
                _ = fcntl(c, F_SETFL, fcntl(c, F_GETFL) | O_NONBLOCK)
                _ = fcntl(c, F_SETFD, FD_CLOEXEC)
                return c
            }
            if errno == EINTR { continue }
            return nil  // EAGAIN: nobody waiting; anything else (EMFILE, ECONNABORTED): try again next tick
        }
    }

    /// Stops listening, removes the socket file if it is still ours, then lets the next server in.
    func stop() {
        defer { lock?.release(); lock = nil }
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
        var st = stat()
        if let id = identity, lstat(path, &st) == 0, st.st_dev == id.0, st.st_ino == id.1 { unlink(path) }
        identity = nil
    }

    /// The AF_UNIX address of `path`, for the server and for a client (`headtrack watch` connects with it).
    public static func address(_ path: String) throws(StreamSocketError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity, !bytes.contains(0) else {
            throw StreamSocketError(message: "event socket path '\(path)' must be 1 to \(capacity - 1) bytes: choose a shorter --socket PATH")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        return address
    }

    /// A client socket (close-on-exec, non-blocking when asked) connected to `path`: `headtrack watch`, the
    /// stream fuzz target and the lab's stream measurement all connect through here.
    public static func connectClient(_ path: String, nonBlocking: Bool = false) throws(StreamSocketError) -> Int32 {
        var address = try UnixListener.address(path)
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        let fd = socket(AF_UNIX, type, 0)
        guard fd >= 0 else {
            let e = LibC.errno
            throw StreamSocketError(message: "cannot create a socket: \(String(cString: strerror(e)))", errno: e)
        }
        let r = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard r == 0 else {
            let e = LibC.errno
            close(fd)
            throw StreamSocketError(message: "cannot connect to \(path): \(String(cString: strerror(e)))", errno: e)
        }
        return fd
    }

    /// A socket file with nobody behind it (a crashed run) is removed; a live one, or a file that is not a
    /// socket, is an error.
    static func removeStale(_ path: String, address: inout sockaddr_un) throws(StreamSocketError) {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        guard (st.st_mode & S_IFMT) == S_IFSOCK else {
            throw StreamSocketError(message: "\(path) exists and is not a socket: remove it or give another --socket PATH")
        }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return }
        defer { close(probe) }
        let connected = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if connected == 0 || errno == EAGAIN {
            // A server that took no lock (an older headtrack): the kernel knows its pid.
            // struct ucred (pid, uid, gid), which Glibc's module map leaves out without _GNU_SOURCE.
            var peer: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
            var size = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
            let pid = connected == 0 && getsockopt(probe, SOL_SOCKET, SO_PEERCRED, &peer, &size) == 0 && peer.pid > 0 ? " (pid \(peer.pid))" : ""
            throw StreamSocketError(message: "another headtrack is already serving \(path)\(pid): stop it first (systemctl stop headtrack) or give another --socket PATH")
        }
        // ECONNREFUSED: the file is left over from a process that died; replace it.
        unlink(path)
    }

    static func errorText() -> String { String(cString: strerror(errno)) }
}
