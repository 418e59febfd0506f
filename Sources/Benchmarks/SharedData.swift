import LibC

/// Finds the shared recordings (`shared/data/...`, beside the repository) from wherever a command is run:
/// the working directory first (`../shared/data`, `shared/data`), then upwards from the executable, which
/// lives in `REPO/.build/<triple>/<config>/` when built from a clone. So `headtrack bench` finds its default
/// trace from the repository root as well as from a build directory.
public enum SharedData {
    /// The first existing `…/shared/data/<relative>`, or nil.
    public static func locate(_ relative: String) -> String? {
        candidates(relative).first { access($0, F_OK) == 0 }
    }

    static func candidates(_ relative: String) -> [String] {
        var list = ["../shared/data/" + relative, "shared/data/" + relative]
        var directory = executableDirectory()
        for _ in 0..<6 {
            guard let d = directory, d != "/" else { break }
            list.append(d + "/../shared/data/" + relative)
            list.append(d + "/shared/data/" + relative)
            directory = parent(of: d)
        }
        return list
    }

    static func executableDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let path = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return parent(of: path)
    }

    static func parent(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let p = String(path[..<slash])
        return p.isEmpty ? "/" : p
    }
}
