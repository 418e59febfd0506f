#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import HeadtrackFuzz

/// Every file under Fuzz/corpus/TARGET goes through the same code the fuzzer runs, in the plain debug
/// build: the seeds, and the `regress-*` inputs (the hostile inputs found by hand and any crash the fuzzer found) that
/// once trapped or hung. A trap here stops the test run, which is the failure.
@Suite struct FuzzCorpusTests {
    static let corpus: String = {
        var dir = #filePath
        for _ in 0..<3 { dir = String(dir[..<dir.lastIndex(of: "/")!]) }  // …/Tests/FuzzCorpusTests/x.swift → root
        return dir + "/Fuzz/corpus"
    }()

    static func files(_ target: FuzzTarget) -> [String] {
        let dir = corpus + "/" + target.rawValue
        guard let d = opendir(dir) else { return [] }
        defer { closedir(d) }
        var names: [String] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(dir + "/" + name) }
        }
        return names.sorted()
    }

    static func read(_ path: String) -> [UInt8] {
        guard let f = fopen(path, "rb") else { return [] }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&chunk, 1, chunk.count, f)
            bytes += chunk[0..<n]
            if n < chunk.count { return bytes }
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func everyCorpusFileRunsCleanly(target: FuzzTarget) {
        let files = FuzzCorpusTests.files(target)
        #expect(files.count >= 2, "Fuzz/corpus/\(target.rawValue) has \(files.count) seeds")
        for path in files { target.run(FuzzCorpusTests.read(path)) }
    }

    /// The regressions must be refused, not merely survive: each is an input known to be bad.
    @Test func regressionInputsAreRefused() {
        var checked = 0
        for target in FuzzTarget.allCases {
            for path in FuzzCorpusTests.files(target) where path.split(separator: "/").last!.hasPrefix("regress-") {
                #expect(!target.accepts(FuzzCorpusTests.read(path)), "\(path) was accepted")
                checked += 1
            }
        }
        #expect(checked >= 15)
    }
}
