import LibC

/// Why the view could not do something with a socket: what happened, then what to do.
public struct ViewError: Error, CustomStringConvertible, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

func errorText(_ e: Int32 = errno) -> String { String(cString: strerror(e)) }

/// Seconds on CLOCK_MONOTONIC.
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

func setNonBlocking(_ fd: Int32) {
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
}

/// The view's TCP listener, bound to 127.0.0.1 and nothing else: only programs on this machine (and the
/// laptop at the far end of an `ssh -L` forward, which arrives from the board's own sshd) can reach it.
final class LoopbackListener {
    let fd: Int32
    let port: Int

    init(port: Int) throws(ViewError) {
        guard (0...65535).contains(port) else { throw ViewError("port \(port) is out of range 0...65535 (0 = any free port)") }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ViewError("cannot create a TCP socket: \(errorText())") }
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)  // 127.0.0.1
        let bound = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let e = errno
            close(fd)
            if e == EADDRINUSE { throw ViewError("port \(port) on 127.0.0.1 is in use (another view?): give another --port N, or --port 0 for any free one") }
            throw ViewError("cannot listen on 127.0.0.1:\(port): \(errorText(e)); give another --port N")
        }
        guard listen(fd, 16) == 0 else {
            let why = errorText()
            close(fd)
            throw ViewError("cannot listen on 127.0.0.1:\(port): \(why)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.fd = fd
        self.port = Int(UInt16(bigEndian: actual.sin_port))
    }

    deinit { close(fd) }

    /// A new connection (non-blocking, close-on-exec), or nil when none waits.
    func accept() -> Int32? {
        while true {
            let c = LibC.accept(fd, nil, nil)
            if c >= 0 { setNonBlocking(c); return c }
            if errno == EINTR { continue }
            return nil
        }
    }
}
