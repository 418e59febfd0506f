#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Hardware

/// File errors that name the file and what to do.
public struct FileError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String
    public init(path: String, message: String) { self.path = path; self.message = message }
    public var description: String { "\(path): \(message)" }
}

/// Small file helpers on plain libc, so library code needs no Foundation.
public enum FileIO {
    public static func read(_ path: String) throws(FileError) -> [UInt8] {
        guard let f = fopen(path, "rb") else {
            throw FileError(path: path, message: "cannot read: \(describeErrno(errno))")
        }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&chunk, 1, chunk.count, f)
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]) }
            if n < chunk.count {
                if ferror(f) != 0 { throw FileError(path: path, message: "read error: \(describeErrno(errno))") }
                break
            }
        }
        return bytes
    }

    public static func readText(_ path: String) throws(FileError) -> String {
        String(decoding: try read(path), as: UTF8.self)
    }

    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Writes `bytes` so that a crash at any moment leaves either the old file or the new one, never a torn
    /// one: write a temporary file beside it, fsync it, rename it over the target, fsync the directory.
    /// When `keepPrevious` is set, the old file is kept as PATH.previous.
    public static func writeAtomically(_ path: String, _ bytes: [UInt8], keepPrevious: Bool = false) throws(FileError) {
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 { throw FileError(path: path, message: "cannot create \(temporary): \(describeErrno(errno))") }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                let e = errno
                close(fd); unlink(temporary)
                throw FileError(path: path, message: "write failed: \(describeErrno(e))")
            }
            offset += n
        }
        if fsync(fd) != 0 {
            let e = errno
            close(fd); unlink(temporary)
            throw FileError(path: path, message: "fsync failed: \(describeErrno(e))")
        }
        close(fd)
        if keepPrevious && exists(path) {
            _ = rename(path, path + ".previous")
        }
        if rename(temporary, path) != 0 {
            let e = errno
            unlink(temporary)
            throw FileError(path: path, message: "rename failed: \(describeErrno(e))")
        }
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let dfd = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_CLOEXEC)
        if dfd >= 0 { fsync(dfd); close(dfd) }
    }
}

/// Appends lines to a file through a large buffer (one write syscall per 64 KiB), for recorders.
public final class BufferedFileWriter {
    private let fd: Int32
    private var buffer: [UInt8] = []
    public let path: String

    public init(path: String) throws(FileError) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 { throw FileError(path: path, message: "cannot create: \(describeErrno(errno))") }
        buffer.reserveCapacity(1 << 16)
    }

    /// Writes to standard output (a command's `-` for a file): a duplicate of fd 1, so closing it leaves
    /// the process's own stdout open.
    public init(standardOutput: Void) throws(FileError) {
        path = "standard output"
        fd = dup(STDOUT_FILENO)
        if fd < 0 { throw FileError(path: path, message: "cannot write: \(describeErrno(errno))") }
        buffer.reserveCapacity(1 << 16)
    }

    public func write(_ text: String) throws(FileError) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { try flush() }
    }

    public func flush() throws(FileError) {
        var offset = 0
        while offset < buffer.count {
            let n = buffer[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, message: "write failed: \(describeErrno(errno))")
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and fsyncs, so a recording survives a power cut after close.
    public func close() throws(FileError) {
        try flush()
        fsync(fd)
        Glibc.close(fd)
    }
}
