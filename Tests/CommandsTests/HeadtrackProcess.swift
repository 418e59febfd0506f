#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `headtrack` binary as a child process and captures what it prints, so a test can check
/// the words a user sees (stdout and stderr apart) without catching other tests' output in this process.
struct HeadtrackProcess {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// `headtrack` sits beside the test bundle in the build directory (`swift test` builds it too).
    static var binary: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = String(decoding: buffer[0..<max(n, 0)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(exe[..<(exe.lastIndex(of: "/") ?? exe.startIndex)]) + "/headtrack"
    }

    static func run(_ arguments: [String], stdin: String = "/dev/null", directory: String? = nil) -> Outcome {
        run(executable: binary, arguments, stdin: stdin, directory: directory)
    }

    static func run(executable: String, _ arguments: [String], stdin: String = "/dev/null", directory: String? = nil) -> Outcome {
        let id = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let outPath = "/tmp/headtrack-child-\(id).out", errPath = "/tmp/headtrack-child-\(id).err"
        defer { unlink(outPath); unlink(errPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // A working directory through the shell: glibc's addchdir_np is not visible to Swift here.
        let command = directory.map { ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", $0, executable] + arguments }
            ?? [executable] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, command[0], &actions, nil, argv, environ) == 0 else {
            return Outcome(status: -1, stdout: "", stderr: "cannot start \(executable)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = (status & 0x7f) == 0
        return Outcome(status: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f),
                       stdout: read(outPath), stderr: read(errPath))
    }

    /// The repository root (this file is REPO/Tests/CommandsTests/HeadtrackProcess.swift).
    static var repository: String {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }

    static func read(_ path: String) -> String {
        guard let f = fopen(path, "rb") else { return "" }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, f)
            bytes += chunk[0..<n]
            if n < chunk.count { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
