import Testing

/// Finds names in Swift source as code uses them: whole words, with `//` comments left out.
enum CodeNames {
    /// The real `Sources` tree, as (path relative to Sources, text); fails the test if it looks empty.
    static func sources() throws -> [(path: String, text: String)] {
        let files = try LayerOrderTests.sourceFiles()
        #expect(files.count > 50, "found only \(files.count) source files: is the root right?")
        return files
    }

    /// Each use of one of `names` in `files`, as `path:line: name`; files under the folders `skipping` are
    /// left out.
    static func uses(of names: [String], in files: [(path: String, text: String)], skipping: [String] = []) -> [String] {
        var found: [String] = []
        for file in files where !skipping.contains(where: { file.path.hasPrefix($0 + "/") }) {
            for (index, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
                let words = code.split { !($0.isLetter || $0.isNumber || $0 == "_") }
                for name in names where words.contains(Substring(name)) {
                    found.append("\(file.path):\(index + 1): \(name)")
                }
            }
        }
        return found
    }
}
