import LibC

/// Whether the local user at the far end of a loopback TCP connection may read the tracker's stream: the view
/// must not hand the stream to a user the socket itself refuses (it is 0660 for the `headtrack` group, and
/// anyone could otherwise read it through the view's port). TCP has no SO_PEERCRED; the kernel's socket table
/// (/proc/net/tcp) names the uid that owns the connecting socket, and that uid must have write permission on
/// the socket file, as `connect` would require.
enum PeerAccess {
    /// The uid owning the client end of `fd` (a connection accepted on 127.0.0.1), or nil when not found.
    static func peerUID(_ fd: Int32) -> uid_t? {
        guard let peer = address(fd, peer: true), let local = address(fd, peer: false) else { return nil }
        let f = open("/proc/net/tcp", O_RDONLY | O_CLOEXEC)
        guard f >= 0 else { return nil }
        defer { close(f) }
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while text.count < 64 << 20 {
            let n = chunk.withUnsafeMutableBytes { read(f, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            text += chunk[0..<n]
        }
        return uid(in: String(decoding: text, as: UTF8.self), client: peer, server: local)
    }

    /// The uid column of the line whose local address is `client` and remote address `server` (both as the
    /// table writes them: "0100007F:9AF7").
    static func uid(in table: String, client: String, server: String) -> uid_t? {
        for line in table.split(separator: "\n").dropFirst() {
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            guard f.count > 7, f[1] == client, f[2] == server else { continue }
            return uid_t(f[7])
        }
        return nil
    }

    /// Whether `uid` may connect to the socket at `path`: root, or write permission by owner, group (primary
    /// or supplementary) or others, as the kernel checks it.
    static func mayConnect(uid: uid_t, to path: String) -> Bool {
        if uid == 0 || uid == geteuid() { return true }  // root, or the view's own user, who reads it already
        var st = stat()
        guard stat(path, &st) == 0 else { return false }  // no tracker yet: only those above
        if st.st_uid == uid { return st.st_mode & 0o200 != 0 }
        if st.st_mode & 0o002 != 0 { return true }
        guard st.st_mode & 0o020 != 0 else { return false }
        return inGroup(uid: uid, gid: st.st_gid)
    }

    private static func inGroup(uid: uid_t, gid: gid_t) -> Bool {
        guard let pw = getpwuid(uid) else { return false }
        if pw.pointee.pw_gid == gid { return true }
        var groups = [gid_t](repeating: 0, count: 256)
        var n = Int32(groups.count)
        guard getgrouplist(pw.pointee.pw_name, pw.pointee.pw_gid, &groups, &n) >= 0 else { return false }
        return groups[0..<Int(n)].contains(gid)
    }

    /// "0100007F:9AF7" for 127.0.0.1:39671: the address in the byte order /proc/net/tcp prints it.
    private static func address(_ fd: Int32, peer: Bool) -> String? {
        var a = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let r = withUnsafeMutablePointer(to: &a) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length) }
        }
        guard r == 0, a.sin_family == sa_family_t(AF_INET) else { return nil }
        return hex(UInt32(a.sin_addr.s_addr), width: 8) + ":" + hex(UInt32(UInt16(bigEndian: a.sin_port)), width: 4)
    }

    private static func hex(_ v: UInt32, width: Int) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
}
