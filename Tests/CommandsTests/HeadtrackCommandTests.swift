#if canImport(Glibc)
import Glibc
#endif
import Formats
import Testing
import TestSupport
@testable import Commands
@testable import LabCommands

/// The command dispatcher (`HeadtrackCommand`, `CommandSet`) through the built binaries: help, usage errors,
/// exit statuses, the version, the lab's forwarding, the program's name in errors and JSON on failure.
@Suite struct HeadtrackCommandTests {
    typealias P = HeadtrackProcess

    static func lab(_ args: [String]) -> P.Outcome {
        let daemon = P.binary
        return P.run(executable: String(daemon.dropLast("headtrack".count)) + "headtrack-lab", args)
    }

    /// stdout as one JSON object, or nil.
    static func object(_ text: String) -> JSONValue? {
        guard let v = try? JSONParser.parse(text.trimmingNewlines), case .object = v else { return nil }
        return v
    }

    @Test func helpCommandShowsThatCommandsHelp() {
        let r = P.run(["help", "run"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("usage: headtrack run"))
        let eval = P.run(["help", "eval", "attitude"])
        #expect(eval.status == 0)
        #expect(eval.stdout.hasPrefix("usage: headtrack eval attitude"))
        #expect(P.run(["help", "fly"]).status == 2)
    }

    @Test func noArgumentsIsAUsageErrorOnStderr() {
        let r = P.run([])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("usage: headtrack COMMAND"))
        let help = P.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("commands:"))
    }

    @Test func everyHelpStatesItsExitStatuses() {
        for c in HeadtrackCommand.commands {
            let text = HeadtrackCommand.fullHelp(c)
            #expect(text.contains("exit status:\n  0  done\n  1  "), "\(c.name)")
            #expect(text.contains("  2  usage error"), "\(c.name)")
        }
        for t in EvalCommand.topics { #expect(EvalCommand.fullHelp(t).contains("exit status:"), "\(t.topic)") }
        let demo = P.run(["demo", "--help"])
        #expect(demo.stdout.contains("1  failed (the plot or the stream could not be written), or a scripted gesture was missed"))
    }

    @Test func versionNamesTheCommitItWasBuiltFrom() throws {
        let r = P.run(["--version"])
        #expect(r.status == 0)
        let line = r.stdout.split(separator: "\n").first.map(String.init) ?? ""
        #expect(line.hasPrefix("headtrack "))
        let git = P.run(executable: "/usr/bin/git", ["-C", P.repository, "rev-parse", "HEAD"])
        try #require(git.status == 0, "no git checkout to compare with")
        let head = git.stdout.prefix(12)
        #expect(line.contains("(commit \(head)"), "\(line) vs HEAD \(head)")
        #expect(line != "headtrack 0.1.0")
    }

    // Once `probe --json` printed nothing on stdout when there was no bus or the config was bad.
    @Test func everyJSONOptionPrintsJSONOnFailureToo() throws {
        let dir = temporaryDirectory("newuser")
        try FileIO.writeAtomically(dir + "/bad.json", Array(#"{"rates": {"imuHz": 5000}}"#.utf8))
        let cases: [[String]] = [["probe", "--json", "--i2c", "/nonexistent/i2c-9"],
                                 ["probe", "--json", "--config", dir + "/bad.json"],
                                 ["replay", dir + "/missing.csv", "--json"]]
        for args in cases {
            let r = P.run(args)
            #expect(r.status == 1, "\(args)")
            let v = Self.object(r.stdout)
            #expect(v?["ok"] == .bool(false), "\(args): stdout \(r.stdout)")
            guard case let .string(message)? = v?["error"] else { Issue.record("\(args): no error string"); continue }
            #expect(r.stderr.contains(message), "\(args): the JSON error is the message on stderr")
        }
        let lab = Self.lab(["eval", "gestures", dir + "/missing", "--json"])
        #expect(lab.status == 1 && Self.object(lab.stdout)?["ok"] == .bool(false), "lab: \(lab.stdout) \(lab.stderr)")
        // watch --json passes the protocol's lines: its failure is the protocol's own error line.
        let watch = P.run(["watch", "--json", "--socket", dir + "/none.sock"])
        #expect(watch.status == 1 && Self.object(watch.stdout)?["type"] == .string("error"), "\(watch.stdout)")
    }

    // Once, after scripts/demo.sh (only the daemon built), `headtrack bench` said "not installed … (the
    // headset install ships only the daemon)" and exited 2.
    @Test func aLabCommandWithoutTheLabSaysHowToBuildItOrThatThisIsAHeadset() throws {
        let dir = temporaryDirectory("newuser")
        let repo = dir + "/clone", build = repo + "/.build/release", installed = dir + "/usr/bin"
        for d in [repo, repo + "/.build", build, dir + "/usr", installed] { mkdir(d, 0o755) }
        try FileIO.writeAtomically(repo + "/Package.swift", Array("// swift-tools-version:6.0\n".utf8))
        for target in [build + "/headtrack", installed + "/headtrack"] {
            try FileIO.writeAtomically(target, try FileIO.read(P.binary))
            chmod(target, 0o755)
        }
        let inTree = P.run(executable: build + "/headtrack", ["bench", "--json"])
        #expect(inTree.status == 1, "\(inTree.stderr)")
        #expect(inTree.stderr.contains("swift build --package-path \(repo) -c release --product headtrack-lab"), "\(inTree.stderr)")
        let onHeadset = P.run(executable: installed + "/headtrack", ["eval", "gestures"])
        #expect(onHeadset.status == 1 && onHeadset.stderr.contains("only the daemon"), "\(onHeadset.stderr)")
    }

    // Once errors named the wrong program.
    @Test func errorsNameTheProgramAsTyped() {
        let viaDaemon = P.run(["eval", "gestures", "/nonexistent"])
        #expect(viaDaemon.stderr.hasPrefix("headtrack eval gestures: "), "\(viaDaemon.stderr)")
        let lab = Self.lab(["eval", "gestures", "/nonexistent"])
        #expect(lab.stderr.hasPrefix("headtrack-lab eval gestures: "), "\(lab.stderr)")
        let smoothing = Self.lab(["eval", "smoothing", "--data", "/nonexistent"])
        #expect(smoothing.stderr.hasPrefix("headtrack-lab eval smoothing: "), "\(smoothing.stderr)")
        #expect(Self.lab(["bench", "--help"]).stdout.hasPrefix("usage: headtrack-lab bench"))
        #expect(Self.lab(["help", "eval", "gestures"]).stdout.hasPrefix("usage: headtrack-lab eval gestures"))
        #expect(P.run(["help", "bench"]).stdout.hasPrefix("usage: headtrack bench"))
    }
}

extension String {
    fileprivate var trimmingNewlines: String {
        var s = Substring(self)
        while s.last == "\n" { s = s.dropLast() }
        return String(s)
    }
}
