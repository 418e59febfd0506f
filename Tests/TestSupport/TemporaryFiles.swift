import LibC

/// A fresh directory for one test, `/tmp/headtrack-NAME-XXXXXX` (mkdtemp: no two tests share one, and a
/// leftover says which suite left it).
public func temporaryDirectory(_ name: String) -> String {
    var template = Array("/tmp/headtrack-\(name)-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        fatalError("cannot make /tmp/headtrack-\(name)-XXXXXX: \(String(cString: strerror(errno)))")
    }
    return String(cString: made)
}

/// The names in `dir`, sorted, without `.` and `..`; none when it cannot be read.
public func directoryEntries(_ dir: String) -> [String] {
    guard let d = opendir(dir) else { return [] }
    defer { closedir(d) }
    var names: [String] = []
    while let e = readdir(d) {
        let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
}

/// Writes `text` to `path` (created or emptied) with stdio: a test's input goes down without the code under
/// test, so a fault in FileIO cannot hide itself.
public func writeText(_ text: String, to path: String) {
    guard let f = fopen(path, "w") else { fatalError("cannot write \(path): \(String(cString: strerror(errno)))") }
    fputs(text, f)
    fclose(f)
}

/// Whether this process may make device nodes (root or CAP_MKNOD): the tests that make their own null and full
/// devices are enabled by it, so without it they show as skipped instead of passing without checking.
public let canMakeDeviceNodes: Bool = {
    let dir = temporaryDirectory("mknod-probe")
    defer { rmdir(dir) }
    guard mknod(dir + "/null", S_IFCHR | 0o666, 0x103) == 0 else { return false }  // char 1,3: the null device
    unlink(dir + "/null")
    return true
}()
