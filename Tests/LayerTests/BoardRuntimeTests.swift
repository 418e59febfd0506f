import Foundation
import Testing

/// The board binary links the Swift 6.0.3 runtime (trixie's `swiftlang`, see scripts/build-board.sh), so
/// `Sources` may use only what the 6.0 standard library has. The board build is the real check, but it runs
/// late in `scripts/test.sh`; this one fails in `swift test` on the names that came later. (InlineArray once
/// passed every other suite and broke the board build, after a whole CI run.)
@Suite struct BoardRuntimeTests {
    /// Standard-library types added after Swift 6.0: InlineArray and the Span family came with 6.2.
    static let newerThanTheBoardRuntime = ["InlineArray", "Span", "RawSpan", "MutableSpan", "MutableRawSpan",
                                           "UTF8Span", "OutputSpan", "OutputRawSpan"]

    /// Each use of a later name, as `path:line: name`, comments left out.
    static func uses(in files: [(path: String, text: String)]) -> [String] {
        CodeNames.uses(of: newerThanTheBoardRuntime, in: files)
    }

    @Test func sourcesUseOnlyTheSwift60StandardLibrary() throws {
        let found = Self.uses(in: try CodeNames.sources())
        #expect(found.isEmpty, "the board's Swift runtime is 6.0.3, which lacks these:\n\(found.joined(separator: "\n"))")
    }

    @Test func aPlantedInlineArrayIsFoundAndACommentIsNot() {
        let planted = [
            (path: "Service/Planted.swift", text: "// an InlineArray would do\nvar due = InlineArray<4, Int>(repeating: 0)\n"),
            (path: "Formats/Planted.swift", text: "func f(_ b: RawSpan) {}\nlet spanCount = 3\n"),
        ]
        #expect(Self.uses(in: planted) == ["Service/Planted.swift:2: InlineArray", "Formats/Planted.swift:1: RawSpan"])
    }
}
