import Testing

/// The C library is imported in one place, `Sources/LibC`, which re-exports glibc or musl, whichever the
/// platform has. A file that names `Glibc` or `Musl` itself builds against one of them only: a review found
/// `Glibc.write` inside `#if canImport(Musl)` branches, and later `Glibc.accept` and friends in BrowserView,
/// where `LibC.accept` resolves on both.
@Suite struct LibCInOnePlaceTests {
    static let cLibraries = ["Glibc", "Musl"]

    /// Each naming of a C library module in code outside the folder `LibC`, as `path:line: name`.
    static func namings(in files: [(path: String, text: String)]) -> [String] {
        CodeNames.uses(of: cLibraries, in: files, skipping: ["LibC"])
    }

    @Test func onlyTheLibCModuleNamesTheCLibrary() throws {
        let found = Self.namings(in: try CodeNames.sources())
        #expect(found.isEmpty, "import LibC and write LibC.name instead:\n\(found.joined(separator: "\n"))")
    }

    @Test func aPlantedGlibcNameIsFoundAndACommentAndTheLibCModuleAreNot() {
        let planted = [
            (path: "BrowserView/Planted.swift", text: "// as Glibc's accept(2)\nlet c = Glibc.accept(fd, nil, nil)\n"),
            (path: "Service/Planted.swift", text: "#if canImport(Musl)\nimport Musl\n#endif\n"),
            (path: "LibC/LibC.swift", text: "@_exported import Glibc\n"),
        ]
        #expect(Self.namings(in: planted) == ["BrowserView/Planted.swift:2: Glibc", "Service/Planted.swift:1: Musl",
                                              "Service/Planted.swift:2: Musl"])
    }
}
