import Foundation
import Testing

/// The rules for where the service lives, read from Sources as text: the loop is built in one place
/// (the session), and the C shims are called only from the layers that wrap them, so the command line cannot
/// grow a second service loop or its own signal handling again (it had five loops and four signal users).
@Suite struct ServiceBoundaryTests {
    /// Code lines (comments dropped) of every Sources file, with the file's path relative to Sources.
    static func codeLines() throws -> [(path: String, line: String)] {
        try LayerOrderTests.sourceFiles().flatMap { file in
            file.text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { raw -> (String, String)? in
                let line = raw.trimmingCharacters(in: .whitespaces)
                return line.hasPrefix("//") ? nil : (file.path, line)
            }
        }
    }

    /// Files that construct a `TrackerLoop(`.
    static func loopConstructions(_ lines: [(path: String, line: String)]) -> [String] {
        lines.filter { $0.line.contains("TrackerLoop(") }.map(\.path)
    }

    /// Calls of a C function `ht_…(` outside the modules allowed to make them: Hardware and Service wrap the
    /// daemon's shims; Benchmarks is the lab's, and the only caller of the lab-only C (bench, malloc counter).
    static func shimCallsOutside(_ lines: [(path: String, line: String)]) -> [String] {
        let allowed = ["Hardware/", "Service/", "Benchmarks/"]
        return lines.filter { entry in
            !allowed.contains { entry.path.hasPrefix($0) }
                && entry.line.range(of: #"(^|[^A-Za-z0-9_])ht_[a-z0-9_]+\("#, options: .regularExpression) != nil
        }.map { "\($0.path): \($0.line)" }
    }

    /// The tracker keeps no network listener. Internet sockets are made only in BrowserView (the
    /// view, a separate process), and only the view command links it, so nothing the tracker runs can listen.
    static func internetSocketsOutside(_ lines: [(path: String, line: String)]) -> [String] {
        lines.filter { !$0.path.hasPrefix("BrowserView/") && $0.line.contains("AF_INET") }.map { "\($0.path): \($0.line)" }
    }

    static func browserViewImporters(_ lines: [(path: String, line: String)]) -> [String] {
        lines.filter { !$0.path.hasPrefix("BrowserView/") && $0.line.range(of: #"^(@\w+\s+)*import\s+BrowserView\b"#, options: .regularExpression) != nil }
            .map(\.path)
    }

    @Test func onlyTheViewTouchesTheNetwork() throws {
        let lines = try Self.codeLines()
        #expect(Self.internetSocketsOutside(lines).isEmpty, "\(Self.internetSocketsOutside(lines).joined(separator: "\n"))")
        // The fuzz binary, which never listens, feeds the view's request parser and its event framing.
        #expect(Self.browserViewImporters(lines) == ["Commands/ViewCommand.swift", "HeadtrackFuzz/FuzzEntry.swift",
                                                     "HeadtrackFuzz/LinesFuzz.swift", "HeadtrackFuzz/ViewRequestFuzz.swift"])
    }

    @Test func aSocketOrImportElsewhereIsSeen() {
        let lines = [(path: "Runtime/EventStream/StreamServer.swift", line: "let fd = socket(AF_INET6, SOCK_STREAM, 0)"),
                     (path: "BrowserView/Sockets.swift", line: "let fd = socket(AF_INET, SOCK_STREAM, 0)"),
                     (path: "Commands/RunCommand.swift", line: "import BrowserView"),
                     (path: "Commands/ViewCommand.swift", line: "@preconcurrency import BrowserView")]
        #expect(Self.internetSocketsOutside(lines).count == 1)
        #expect(Self.browserViewImporters(lines) == ["Commands/RunCommand.swift", "Commands/ViewCommand.swift"])
    }

    @Test func theLoopIsBuiltOnlyByTheSession() throws {
        #expect(Self.loopConstructions(try Self.codeLines()) == ["Service/TrackerSession.swift"])
    }

    /// Files that build a stage of the pipeline (filter, compass, gesture detector) outside its own module.
    static func stageConstructions(_ lines: [(path: String, line: String)]) -> [String] {
        let own = ["Fusion/", "Gestures/"]
        return lines.filter { entry in
            !own.contains { entry.path.hasPrefix($0) }
                && entry.line.range(of: #"(AttitudeFilter|TiltCompensatedCompass|GestureDetector)\("#, options: .regularExpression) != nil
        }.map(\.path)
    }

    /// One wiring: the algorithms are connected only in the pipeline, so what `eval` measures is
    /// what `run` runs. The bench times each stage alone, and nothing else builds one.
    @Test func thePipelineIsTheOnlyWiring() throws {
        #expect(Set(Self.stageConstructions(try Self.codeLines())) == ["Tracking/Pipeline.swift", "Benchmarks/BenchStages.swift"])
    }

    @Test func aSecondWiringIsSeen() {
        let lines = [(path: "Tracking/Pipeline.swift", line: "filter = AttitudeFilter(settings: settings.filter)"),
                     (path: "Evaluation/GestureReplay.swift", line: "var filter = AttitudeFilter(settings: s)"),
                     (path: "Fusion/AttitudeFilter.swift", line: "self = AttitudeFilter(settings: settings)")]
        #expect(Self.stageConstructions(lines) == ["Tracking/Pipeline.swift", "Evaluation/GestureReplay.swift"])
    }

    @Test func cShimsAreCalledOnlyBelowTheCommandLine() throws {
        let calls = Self.shimCallsOutside(try Self.codeLines())
        #expect(calls.isEmpty, "\(calls.joined(separator: "\n"))")
    }

    // The checks must be able to fail.

    @Test func aSecondConstructionIsSeen() {
        let lines = [("Service/TrackerSession.swift", "loop = TrackerLoop(driver: b)"),
                     ("Commands/RunCommand.swift", "var loop = TrackerLoop(driver: d, lines: l)"),
                     ("Commands/RunCommand.swift", "// TrackerLoop( in a comment is fine")]
        #expect(Self.loopConstructions(lines.filter { !$0.1.hasPrefix("//") }.map { (path: $0.0, line: $0.1) })
                == ["Service/TrackerSession.swift", "Commands/RunCommand.swift"])
    }

    @Test func aSignalCallInTheCommandLineIsSeen() {
        let lines = [(path: "Commands/RunCommand.swift", line: "ht_install_stop_handlers()"),
                     (path: "Commands/RunCommand.swift", line: "shouldStop: { ht_stop_requested() != 0 }"),
                     (path: "Hardware/StopSignals.swift", line: "ht_install_stop_handlers()"),
                     (path: "Commands/X.swift", line: "let what_ht_x = 1")]
        #expect(Self.shimCallsOutside(lines).count == 2)
    }
}
