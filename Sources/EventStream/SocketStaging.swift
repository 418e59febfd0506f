import LibC

/// A directory of this process's own beside the socket path (`PATH.newPID`, mode 0700), where the socket is
/// bound, given its mode and group and made to listen before one rename moves it into place. The socket's
/// directory may be writable by others (a `--socket` in /tmp, a 0777 directory): there a name of ours can be
/// swapped for a symlink between two calls, and a root daemon's `chmod` or `chown` through that name changed
/// the file the link pointed to. Inside a 0700 directory nobody else can put a name, and every change goes
/// through the directory's descriptor, so a directory swapped for another after it was made is never used.
struct SocketStaging {
    /// The directory, and the socket's path inside it (what `bind` is given).
    let directory: String
    let socketPath: String
    private static let leaf = "s"
    private let dirfd: Int32

    /// Makes the directory (a leftover of this pid, a crash before a reboot, is cleared first).
    init(beside path: String) throws(StreamSocketError) {
        directory = path + ".new\(getpid())"
        socketPath = directory + "/" + SocketStaging.leaf
        var made = false
        for _ in 0..<3 {
            if mkdir(directory, 0o700) == 0 { made = true; break }
            guard errno == EEXIST else { break }
            SocketStaging.clearLeftover(directory)
        }
        guard made else {
            let why = String(cString: strerror(errno))
            throw StreamSocketError(message: "cannot make the staging directory \(directory) beside the event socket: \(why); "
                + "remove it, or give --socket PATH in a directory only headtrack may write")
        }
        dirfd = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        var st = stat()
        guard dirfd >= 0, fstat(dirfd, &st) == 0, st.st_uid == geteuid(), st.st_mode & 0o077 == 0 else {
            if dirfd >= 0 { close(dirfd) }
            throw StreamSocketError(message: "the staging directory \(directory) was replaced by another process while the event "
                + "socket was set up: give --socket PATH in a directory only headtrack may write")
        }
    }

    /// Mode 0660 and `group` (when given and different) on the bound socket, without following a link. 0 or
    /// the errno of the call that failed.
    func setMode(group: gid_t?) -> Int32 {
        var st = stat()
        guard fstatat(dirfd, SocketStaging.leaf, &st, AT_SYMLINK_NOFOLLOW) == 0 else { return errno }
        guard st.st_mode & S_IFMT == S_IFSOCK else { return EINVAL }
        // chown only when the group differs: under the unit (Group=headtrack) it never does, and the unit's
        // SystemCallFilter= (~@privileged) kills the daemon for any chown call, needed or not.
        // A user outside the group may not give it away: the socket then keeps the user's own group.
        if let group, st.st_gid != group { _ = fchownat(dirfd, SocketStaging.leaf, uid_t.max, group, AT_SYMLINK_NOFOLLOW) }
        // No link can be at this name (nobody else may write the directory), so this changes our socket only.
        return fchmodat(dirfd, SocketStaging.leaf, 0o660, 0) == 0 ? 0 : errno
    }

    /// Moves the socket to `path`; 0 or the errno.
    func move(to path: String) -> Int32 { renameat(dirfd, SocketStaging.leaf, AT_FDCWD, path) == 0 ? 0 : errno }

    /// Removes the socket if it is still here, and the directory.
    func remove() {
        _ = unlinkat(dirfd, SocketStaging.leaf, 0)
        close(dirfd)
        _ = rmdir(directory)
    }

    /// A leftover at the staging name: a link or file is removed (never followed), a directory of ours emptied
    /// of its socket and removed; anything else stays, and making the directory then fails with what to do.
    private static func clearLeftover(_ directory: String) {
        var st = stat()
        guard lstat(directory, &st) == 0 else { return }
        if st.st_mode & S_IFMT != S_IFDIR { _ = unlink(directory); return }
        guard st.st_uid == geteuid() else { return }
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = unlinkat(fd, leaf, 0)
        close(fd)
        _ = rmdir(directory)
    }
}
