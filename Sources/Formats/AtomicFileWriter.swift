import LibC
import Hardware

/// Writes a file so that a crash at any moment leaves either the old file or the new one, whole:
///
/// 1. follow PATH if it is a symlink (the link stays a link; its target gets the new content);
/// 2. remove temporary files that earlier saves of the same file left behind when they were killed;
/// 3. write `NAME.tmp-PID` beside the target, fsync it;
/// 4. with `keepPrevious`, hard-link (or, where links are not supported, copy) the old file to a temporary
///    name and rename that over `NAME.previous`: the old file itself is never moved away;
/// 5. `rename` the temporary over the target (one atomic step: there is no moment without a file), fsync
///    the directory so the rename itself survives a power cut.
///
/// A target that exists and is not a regular file (a device such as /dev/stdout, a FIFO) cannot be
/// replaced meaningfully: it is opened and written directly, without temporary file or rename.
public final class AtomicFileWriter {
    /// The points between the steps of a save, for tests that stop a save there as a SIGKILL would.
    public enum Step: CaseIterable, Sendable {
        case staleTemporariesRemoved, temporaryCreated, temporaryWritten, temporarySynced, previousKept, renamed, directorySynced
    }

    /// The name given (what messages show).
    public let path: String
    /// The file that is replaced: `path` with symlinks followed.
    public let target: String
    /// Temporary file being written, nil when writing a device or FIFO directly.
    public let temporary: String?
    private let keepPrevious: Bool
    private let afterStep: (Step) -> Bool
    private var fd: Int32
    private var finished = false
    /// Set once the test hook stopped the save: the object then behaves like a dead process (no clean-up).
    private var killed = false
    /// The first failure: every later write or commit reports it again (a full disk stays "disk full"; a
    /// second attempt would only meet the descriptor the failure closed).
    private var failure: FileError? = nil

    public init(path: String, keepPrevious: Bool = false, afterStep: @escaping (Step) -> Bool = { _ in true }) throws(FileError) {
        self.path = path
        self.keepPrevious = keepPrevious
        self.afterStep = afterStep
        target = try AtomicFileWriter.resolveSymlinks(path)
        var st = stat()
        let exists = stat(target, &st) == 0
        if exists && (st.st_mode & S_IFMT) == S_IFDIR {
            throw FileError(path: path, message: "is a directory; give a file name")
        }
        if exists && (st.st_mode & S_IFMT) != S_IFREG {
            // A device or FIFO: write to it as it is (O_TRUNC and rename make no sense for them).
            temporary = nil
            fd = open(target, O_WRONLY | O_CLOEXEC | O_NOCTTY)
            if fd < 0 { throw FileError(path: path, message: "cannot open for writing: \(describeErrno(errno))") }
            return
        }
        AtomicFileWriter.removeStaleTemporaries(of: target)
        let temporary = target + ".tmp-\(getpid())"
        self.temporary = temporary
        fd = -1
        guard afterStep(.staleTemporariesRemoved) else { killed = true; return }
        // Keep the old file's permission bits (a calibration made private stays private).
        let mode = exists ? mode_t(st.st_mode & 0o7777) : 0o644
        fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        if fd < 0 {
            throw FileError(path: path, message: "cannot create \(temporary): \(describeErrno(errno)) (is the directory there and writable?)")
        }
        if exists { _ = fchmod(fd, mode) }  // the umask may have narrowed it
        guard afterStep(.temporaryCreated) else { killed = true; return }
    }

    /// Writes to a duplicate of an open descriptor (standard output for a command's `-`), directly, like a
    /// device: closing it leaves the process's own descriptor open.
    public init(duplicating descriptor: Int32, name: String) throws(FileError) {
        path = name
        target = name
        temporary = nil
        keepPrevious = false
        afterStep = { _ in true }
        fd = dup(descriptor)
        if fd < 0 { throw FileError(path: name, message: "cannot write: \(describeErrno(errno))") }
    }

    deinit {
        // Not committed (an error, or the caller gave up): drop the temporary, leave the old file as it was.
        if !finished && !killed {
            if fd >= 0 { close(fd) }
            if let t = temporary { unlink(t) }
        }
    }

    public func write(_ bytes: [UInt8]) throws(FileError) {
        guard !killed else { return }
        if let failure { throw failure }
        if let e = Self.writeAll(bytes, to: fd) {
            throw fail(FileError(path: path, message: "write failed: \(describeErrno(e))" + (e == ENOSPC ? " (disk full?)" : "")))
        }
    }

    /// Remembers the first failure and drops the temporary.
    private func fail(_ error: FileError) -> FileError {
        failure = failure ?? error
        abandon()
        return failure!
    }

    /// Makes the new content the file's content (see the type's steps).
    public func commit() throws(FileError) {
        if let failure { throw failure }
        guard !killed, !finished else { return }
        guard let temporary else {
            finished = true
            let e = close(fd) == 0 ? 0 : errno
            fd = -1
            if e != 0 { throw fail(FileError(path: path, message: "write failed: \(describeErrno(e))")) }
            return
        }
        guard step(.temporaryWritten) else { return }
        if fsync(fd) != 0 {
            let e = errno
            throw fail(FileError(path: path, message: "fsync failed: \(describeErrno(e))"))
        }
        if close(fd) != 0 {
            let e = errno
            fd = -1
            throw fail(FileError(path: path, message: "write failed at close: \(describeErrno(e))"))
        }
        fd = -1
        guard step(.temporarySynced) else { return }
        if keepPrevious && FileIO.exists(target) {
            do { try keepOldAsPrevious() } catch { throw fail(error) }
        }
        guard step(.previousKept) else { return }
        if rename(temporary, target) != 0 {
            let e = errno
            throw fail(FileError(path: path, message: "rename failed: \(describeErrno(e))"))
        }
        finished = true
        guard step(.renamed) else { return }
        AtomicFileWriter.syncDirectory(of: target)
        _ = step(.directorySynced)
    }

    /// Removes the temporary and leaves the old file untouched.
    public func abandon() {
        guard !finished, !killed else { return }
        finished = true
        if fd >= 0 { close(fd); fd = -1 }
        if let t = temporary { unlink(t) }
    }

    private func step(_ s: Step) -> Bool {
        if afterStep(s) { return true }
        killed = true
        return false
    }

    /// PATH.previous becomes a second name of the old file (a hard link), put in place by rename so that
    /// the previous copy, too, is always whole. Filesystems without hard links (vfat) get a copy.
    private func keepOldAsPrevious() throws(FileError) {
        let previous = target + ".previous"
        let staging = previous + ".tmp-\(getpid())"
        unlink(staging)
        if link(target, staging) != 0 {
            let old: [UInt8]
            do { old = try FileIO.read(target) } catch { throw FileError(path: path, message: "cannot keep the old file as \(previous): \(error.message)") }
            let fd = open(staging, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if fd < 0 { throw FileError(path: path, message: "cannot create \(staging): \(describeErrno(errno))") }
            if let e = Self.writeAll(old, to: fd) {
                close(fd); unlink(staging)
                throw FileError(path: path, message: "cannot write \(staging): \(describeErrno(e))")
            }
            let synced = fsync(fd) == 0
            close(fd)
            if !synced { unlink(staging); throw FileError(path: path, message: "fsync of \(staging) failed") }
        }
        if rename(staging, previous) != 0 {
            let e = errno
            unlink(staging)
            throw FileError(path: path, message: "cannot keep the old file as \(previous): \(describeErrno(e))")
        }
        // rename() does nothing when both names are links to one file (.previous already is the old file,
        // after a save stopped between its steps): then the staging name is still there.
        unlink(staging)
    }

    // MARK: Helpers

    /// Writes all of `bytes` to `fd`, again after a signal (EINTR) or a short write; the errno of a failure,
    /// nil when all was written.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { LibC.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return nil
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let d = String(path[..<slash])
        return d.isEmpty ? "/" : d
    }

    static func syncDirectory(of path: String) {
        let dfd = open(directory(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 { fsync(dfd); close(dfd) }
    }

    /// `path` with every symlink in its last component followed (relative links are relative to the link's
    /// directory); a dangling link resolves to the file it names, which the save then creates.
    static func resolveSymlinks(_ path: String) throws(FileError) -> String {
        var current = path
        for _ in 0..<40 {  // the kernel's own limit (MAXSYMLINKS)
            var st = stat()
            guard lstat(current, &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buffer, buffer.count - 1)
            if n < 0 { throw FileError(path: path, message: "cannot read the symlink \(current): \(describeErrno(errno))") }
            let link = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = link.hasPrefix("/") ? link : directory(of: current) + "/" + link
        }
        throw FileError(path: path, message: "too many levels of symlinks (a loop?)")
    }

    /// Deletes `NAME.tmp-PID` (and `NAME.previous.tmp-PID`) files whose process is gone (or is this one):
    /// what a save killed between creating and renaming its temporary leaves behind.
    static func removeStaleTemporaries(of target: String) {
        let dir = directory(of: target)
        let base = target.lastIndex(of: "/").map { String(target[target.index(after: $0)...]) } ?? target
        guard let d = opendir(dir) else { return }
        defer { closedir(d) }
        let me = getpid()
        var stale: [String] = []
        while let entry = readdir(d) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            for prefix in [base + ".tmp-", base + ".previous.tmp-"] where name.hasPrefix(prefix) {
                guard let pid = Int32(name.dropFirst(prefix.count)), pid > 0 else { continue }
                if pid == me || (kill(pid, 0) != 0 && errno == ESRCH) { stale.append(name) }
            }
        }
        for name in stale { unlink(dir + "/" + name) }
    }
}
