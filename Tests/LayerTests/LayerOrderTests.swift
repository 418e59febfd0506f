import Foundation
import Testing

/// The layer order written in Package.swift's header (`// layer: A, B` lines, bottom first) is the house rule:
/// a target imports only targets on lower lines. These tests hold every `import` in Sources and every target's
/// `dependencies:` to it, so the comment cannot drift from the code again (it did: Sensors imported Fusion).
@Suite struct LayerOrderTests {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    /// Every .swift file below Sources, as (path relative to Sources, text).
    static func sourceFiles() throws -> [(path: String, text: String)] {
        let sources = root.appendingPathComponent("Sources")
        guard let walker = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else { return [] }
        var files: [(String, String)] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            let relative = String(url.standardizedFileURL.path.dropFirst(sources.standardizedFileURL.path.count + 1))
            files.append((relative, try read(url)))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    @Test func theRealTreeKeepsTheDocumentedOrder() throws {
        let package = try Self.read(Self.root.appendingPathComponent("Package.swift"))
        let files = try Self.sourceFiles()
        #expect(files.count > 50, "found only \(files.count) source files: is the root \(Self.root.path) right?")
        let problems = LayerCheck.violations(package: package, sources: files)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// The view links no algorithm: everything `BrowserView` depends on, directly or through its dependencies
    /// in Package.swift, is plain text, the page, or the C library. Before `PlainText` it took its JSON string
    /// writer from Formats and so linked the whole tracker.
    @Test func theViewsDependencyClosureHoldsNoAlgorithm() throws {
        let package = try Self.read(Self.root.appendingPathComponent("Package.swift"))
        let deps = Dictionary(LayerCheck.targets(package).map { ($0.name, $0.dependencies) }, uniquingKeysWith: { a, _ in a })
        var closure: Set<String> = []
        var todo = deps["BrowserView"] ?? []
        #expect(!todo.isEmpty, "BrowserView not found in Package.swift")
        while let next = todo.popLast() {
            if closure.insert(next).inserted { todo += deps[next] ?? [] }
        }
        #expect(closure == ["LibC", "PlainText", "ViewPage"], "\(closure.sorted())")
    }

    /// A wrong import planted into the real tree is caught: the floors of docs/architecture.md (formats below the event
    /// stream, the event stream below the service, the one wiring below the formats) hold in the checker's
    /// reading of the real Package.swift, not only in a made-up one.
    @Test func aWrongImportPlantedInTheRealTreeFails() throws {
        let package = try Self.read(Self.root.appendingPathComponent("Package.swift"))
        let files = try Self.sourceFiles()
        for (planted, text) in [("Formats/Planted.swift", "import Service\n"), ("EventStream/Planted.swift", "import Service\n"),
                                ("Tracking/Planted.swift", "import Formats\n"), ("Formats/Planted2.swift", "import EventStream\n")] {
            let problems = LayerCheck.violations(package: package, sources: files + [(planted, text)])
            #expect(problems.count == 1 && problems.first?.hasPrefix(planted + ":1: ") == true, "\(planted): \(problems)")
        }
    }

    // MARK: the checker itself must be able to fail

    static let package = """
    // layer: CLinux, Geometry
    // layer: Hardware
    // layer: Sensors
    // layer: Fusion, Gestures
    let package = Package(targets: [
        .target(name: "CLinux"),
        .target(name: "Geometry", swiftSettings: strict),
        .target(name: "Hardware", dependencies: ["CLinux"]),
        .target(name: "Sensors", dependencies: ["Hardware", "Geometry"]),
        .target(name: "Fusion", dependencies: ["Geometry"]),
        .target(name: "Gestures", dependencies: ["Geometry"]),
        .testTarget(name: "SensorsTests", dependencies: ["Sensors", "Fusion"]),
    ])
    """

    @Test func downwardImportsPass() {
        let files = [("Sensors/A.swift", "import Hardware\nimport Geometry\n#if canImport(Glibc)\nimport Glibc\n#endif\n"),
                     ("Fusion/B.swift", "@preconcurrency import Geometry\n")]
        #expect(LayerCheck.violations(package: Self.package, sources: files) == [])
    }

    @Test func anUpwardImportFails() {
        let problems = LayerCheck.violations(package: Self.package, sources: [("Sensors/A.swift", "import Fusion\n")])
        #expect(problems == ["Sensors/A.swift:1: Sensors imports Fusion, which is not below it in Package.swift's layer list"])
    }

    @Test func aPeerImportFails() {
        let problems = LayerCheck.violations(package: Self.package, sources: [("Gestures/G.swift", "\nimport Fusion\n")])
        #expect(problems.count == 1 && problems[0].hasPrefix("Gestures/G.swift:2: Gestures imports Fusion"))
    }

    @Test func anUndeclaredModuleFails() {
        let problems = LayerCheck.violations(package: Self.package,
                                             sources: [("Sensors/A.swift", "import Foundation\n"), ("Lab/B.swift", "import Geometry\n")])
        #expect(problems.contains { $0.hasPrefix("Sensors/A.swift:1: Sensors imports Foundation, which is not a target") })
        #expect(problems.contains { $0.hasPrefix("Lab/B.swift: the target Lab is not in") })
    }

    @Test func anUpwardPackageDependencyFails() {
        let bad = Self.package.replacingOccurrences(of: #"dependencies: ["CLinux"]"#, with: #"dependencies: ["CLinux", "Sensors"]"#)
        #expect(LayerCheck.violations(package: bad, sources: []) == ["Package.swift: Hardware depends on Sensors, which is not below it"])
    }

    @Test func aTargetMissingFromTheListFails() {
        let bad = Self.package.replacingOccurrences(of: "// layer: Fusion, Gestures", with: "// layer: Fusion")
        #expect(LayerCheck.violations(package: bad, sources: []).contains("Package.swift: the target Gestures is not in the layer list"))
    }
}

/// Parses the `// layer:` lines and checks imports and target dependencies against them.
enum LayerCheck {
    /// Modules that are not ours (the C library, the standard library's parts).
    static let system: Set<String> = ["Glibc", "Musl", "Darwin", "Swift", "_Concurrency", "Synchronization"]

    static func levels(_ package: String) -> [String: Int] {
        var level: [String: Int] = [:]
        for line in package.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("// layer:") else { continue }
            let n = level.values.max().map { $0 + 1 } ?? 0
            for name in text.dropFirst("// layer:".count).split(separator: ",") {
                level[name.trimmingCharacters(in: .whitespaces)] = n
            }
        }
        return level
    }

    /// (target, its dependencies) for every non-test target in the manifest.
    static func targets(_ package: String) -> [(name: String, dependencies: [String])] {
        let pattern = try! NSRegularExpression(pattern: #"\.(target|executableTarget|testTarget)\(name: "([\w-]+)""#)
        let ns = package as NSString
        let matches = pattern.matches(in: package, range: NSRange(location: 0, length: ns.length))
        var result: [(String, [String])] = []
        for (i, m) in matches.enumerated() where ns.substring(with: m.range(at: 1)) != "testTarget" {
            let end = i + 1 < matches.count ? matches[i + 1].range.location : ns.length
            let body = ns.substring(with: NSRange(location: m.range.location, length: end - m.range.location))
            var deps: [String] = []
            if let open = body.range(of: "dependencies: ["), let close = body[open.upperBound...].firstIndex(of: "]") {
                deps = body[open.upperBound..<close].split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                }.filter { !$0.isEmpty }
            }
            result.append((ns.substring(with: m.range(at: 2)), deps))
        }
        return result
    }

    static func violations(package: String, sources: [(path: String, text: String)]) -> [String] {
        let level = levels(package)
        var problems: [String] = []
        for target in targets(package) {
            guard let own = level[target.name] else {
                problems.append("Package.swift: the target \(target.name) is not in the layer list"); continue
            }
            for dep in target.dependencies where (level[dep] ?? Int.max) >= own {
                problems.append("Package.swift: \(target.name) depends on \(dep), which is not below it")
            }
        }
        let importLine = try! NSRegularExpression(
            pattern: #"^\s*(?:@\w+\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)"#)
        for file in sources {
            let module = String(file.path.split(separator: "/").first ?? "")
            guard let own = level[module] else {
                problems.append("\(file.path): the target \(module) is not in Package.swift's layer list"); continue
            }
            for (n, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let text = String(line)
                guard let m = importLine.firstMatch(in: text, range: NSRange(location: 0, length: (text as NSString).length))
                else { continue }
                let imported = (text as NSString).substring(with: m.range(at: 1))
                if system.contains(imported) { continue }
                guard let theirs = level[imported] else {
                    problems.append("\(file.path):\(n + 1): \(module) imports \(imported), which is not a target in the layer list")
                    continue
                }
                if theirs >= own {
                    problems.append("\(file.path):\(n + 1): \(module) imports \(imported), which is not below it in Package.swift's layer list")
                }
            }
        }
        return problems
    }
}
