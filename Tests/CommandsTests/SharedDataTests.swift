#if canImport(Glibc)
import Glibc
#endif
import Formats
import Testing
@testable import Benchmarks

/// The shared recordings (`../shared`): found from the binary's place (`SharedData`), described in the README,
/// and every test that needs them says so when it is skipped.
@Suite struct SharedDataTests {
    typealias P = HeadtrackProcess

    /// The clone's layout: REPO/.build/... and shared/ beside REPO. Where the shared data is there at all,
    /// the candidates from the executable's own place must reach it, whatever the working directory
    /// (skipped, and shown as skipped, where the clone has no shared/ beside it).
    @Test(.enabled(if: access(HeadtrackProcess.repository + "/../shared/data/attitude", F_OK) == 0,
                   "needs ../shared (README: Shared recordings)"))
    func sharedRecordingsAreFoundFromTheBinarysPlace() {
        let fromBinary = SharedData.candidates("attitude").filter { $0.hasPrefix("/") }
        #expect(fromBinary.contains { access($0, F_OK) == 0 })
        let elsewhere = P.run(["eval", "smoothing", "--help"], directory: "/")
        #expect(elsewhere.stdout.contains("../shared/data/attitude"))
        #expect(!elsewhere.stdout.contains("/work/"))
    }

    // Once nothing said what ../shared is or where its data comes from.
    @Test func theReadmeSaysWhatSharedIsAndWhereItsDataComesFrom() throws {
        let readme = String(decoding: try FileIO.read(P.repository + "/README.md"), as: UTF8.self)
        let section = readme.components("### Shared recordings (`../shared`)")
        #expect(section.count == 2, "no '### Shared recordings (`../shared`)' section")
        let body = String(section.last?.prefix(1500) ?? "")
        for fact in ["STMicroelectronics", "BROAD", "BSD-3-Clause", "data/README.md", "skipped: no ../shared"] {
            #expect(body.contains(fact), "the section does not mention \(fact)")
        }
    }

    /// Every test that reads ../shared says so when it is skipped, in the words scripts/test.sh counts.
    @Test func everyTestThatNeedsSharedIsCountedWhenSkipped() throws {
        let script = String(decoding: try FileIO.read(P.repository + "/scripts/test.sh"), as: UTF8.self)
        #expect(script.contains("needs ../shared") && script.contains("skipped: no ../shared"))
        for file in ["Tests/GesturesTests/RecordedGestureTests.swift", "Tests/EvaluationTests/SVGPlotTests.swift",
                     "Tests/CommandsTests/SharedDataTests.swift", "Tests/stream/stream_test.py"] {
            let text = String(decoding: try FileIO.read(P.repository + "/" + file), as: UTF8.self)
            #expect(text.contains("needs ../shared"), "\(file) skips without saying so")
        }
    }
}

extension String {
    fileprivate func components(_ separator: String) -> [String] {
        var out: [String] = []
        var rest = Substring(self)
        while let r = rest.firstRange(of: separator) {
            out.append(String(rest[..<r.lowerBound]))
            rest = rest[r.upperBound...]
        }
        return out + [String(rest)]
    }
}
