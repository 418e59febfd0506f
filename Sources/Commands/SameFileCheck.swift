import LibC

/// An output that is the command's own input (same device and inode: the same name, a symlink to it, or `-`
/// being the file on standard input or output) would replace what is being read, so it is a usage error that
/// names both, before anything is read or written. Only a regular input can be replaced this way: a terminal
/// or a pipe on both standard input and output is not one file.
enum SameFileCheck {
    /// The file `path` names (symlinks followed), or the one on `standard` for `-`.
    static func identity(_ path: String, standard fd: Int32) -> (dev: UInt64, inode: UInt64, regular: Bool)? {
        var st = stat()
        let found = path == "-" ? fstat(fd, &st) == 0 : stat(path, &st) == 0
        guard found else { return nil }
        return (UInt64(st.st_dev), UInt64(st.st_ino), (st.st_mode & S_IFMT) == S_IFREG)
    }

    static func name(_ path: String, standard: String) -> String { path == "-" ? "- (\(standard))" : path }

    /// Throws when one of `outputs` (option name, path) is the file `input` names.
    static func refuse(input: String, what: String, outputs: [(option: String, path: String?)]) throws {
        guard let source = identity(input, standard: STDIN_FILENO), source.regular else { return }
        for (option, path) in outputs {
            guard let path, let target = identity(path, standard: STDOUT_FILENO),
                  target.dev == source.dev, target.inode == source.inode else { continue }
            throw CommandError("--\(option) \(name(path, standard: "standard output")) is the \(what) "
                + "\(name(input, standard: "standard input")) itself: writing it would replace what is being read; name another file",
                status: 2)
        }
    }
}
