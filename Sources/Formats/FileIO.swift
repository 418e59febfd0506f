import LibC
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
    /// Files larger than this are refused by `read` unless a caller asks for more: 4 GiB is far beyond the
    /// longest recording (20 min at 285 Hz is 25 MB) and stops /dev/zero from eating all memory.
    public static let defaultReadLimit = 4 << 30
    /// Config, calibration and truth files are a few kB; 16 MiB leaves room for comments and still fails fast.
    public static let smallFileLimit = 16 << 20

    public static func read(_ path: String) throws(FileError) -> [UInt8] {
        try read(path, limit: defaultReadLimit)
    }

    public static func read(_ path: String, limit: Int) throws(FileError) -> [UInt8] {
        guard let f = fopen(path, "rb") else {
            throw FileError(path: path, message: "cannot read: \(describeErrno(errno))")
        }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&chunk, 1, chunk.count, f)
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]) }
            if bytes.count > limit {
                throw FileError(path: path, message: "larger than \(limit >> 20) MiB: not the kind of file expected here")
            }
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
    /// or missing one (see `AtomicFileWriter`). When `keepPrevious` is set, the old file is kept as
    /// PATH.previous. `afterStep` is for tests: returning false there stops the save as a SIGKILL would.
    public static func writeAtomically(_ path: String, _ bytes: [UInt8], keepPrevious: Bool = false,
                                       afterStep: @escaping (AtomicFileWriter.Step) -> Bool = { _ in true }) throws(FileError) {
        let file = try AtomicFileWriter(path: path, keepPrevious: keepPrevious, afterStep: afterStep)
        try file.write(bytes)
        try file.commit()
    }
}

/// Appends lines to a file through a large buffer (one write syscall per 64 KiB), for recorders. The lines go
/// to a temporary file that replaces PATH only at `close()`: an existing file is never truncated by a
/// recording that fails to start or dies half-way.
public final class BufferedFileWriter {
    private let file: AtomicFileWriter
    private var buffer: [UInt8] = []
    public var path: String { file.path }

    public init(path: String) throws(FileError) {
        file = try AtomicFileWriter(path: path)
        buffer.reserveCapacity(1 << 16)
    }

    /// Writes to standard output (a command's `-` for a file): a duplicate of fd 1, so closing it leaves
    /// the process's own stdout open.
    public init(standardOutput: Void) throws(FileError) {
        file = try AtomicFileWriter(duplicating: STDOUT_FILENO, name: "standard output")
        buffer.reserveCapacity(1 << 16)
    }

    public func write(_ text: String) throws(FileError) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { try flush() }
    }

    public func flush() throws(FileError) {
        try file.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, fsyncs and puts the file in place, so a recording survives a power cut after close.
    public func close() throws(FileError) {
        try flush()
        try file.commit()
    }
}
