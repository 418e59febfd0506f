import LibC

/// The daemon (`headtrack`) and the lab (`headtrack-lab`) are built into one directory. Each finds the other
/// there, never on PATH, so `headtrack bench` runs the lab of the same build and the lab's memory figures
/// are of the daemon of the same build.
public enum SiblingExecutable {
    /// `name` in the directory of the running executable (/proc/self/exe), or nil when that cannot be read.
    public static func path(_ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let own = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = own.lastIndex(of: "/") else { return nil }
        return String(own[...slash]) + name
    }

    /// True when `path` names a file this process may execute.
    public static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }
}
