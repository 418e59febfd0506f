#if canImport(Glibc)
import Glibc
#endif
import Formats
import Testing
import TestSupport

/// What a new user trips over, each through the built binaries, as a user meets it.
@Suite struct NewUserTests {
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

    // Item 7: `probe --json` printed nothing on stdout when there was no bus or the config was bad.
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

    // Item 8: after scripts/demo.sh (only the daemon built), `headtrack bench` said "not installed … (the
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

    // Item 9: a repeated option was "unknown option".
    @Test func aRepeatedOptionIsSaidToBeGivenTwice() {
        let twice = P.run(["demo", "--speed", "1", "--speed", "2"])
        #expect(twice.status == 2 && twice.stderr.contains("--speed given twice") && !twice.stderr.contains("unknown option"),
                "\(twice.stderr)")
        let flag = P.run(["watch", "--json", "--json", "--socket", "/nonexistent/x.sock"])
        #expect(!flag.stderr.contains("unknown option"), "a flag given twice is the flag: \(flag.stderr)")
        #expect(flag.status == 1)
    }

    // Item 10: `watch --socket /tmp` said "nothing is serving /tmp (left over from a headtrack that stopped)".
    @Test func watchSaysWhatThePathIsWhenItIsNoSocket() throws {
        let dir = temporaryDirectory("newuser")
        let asDirectory = P.run(["watch", "--socket", dir])
        #expect(asDirectory.stderr.contains("\(dir) is a directory, not a socket") && !asDirectory.stderr.contains("left over"),
                "\(asDirectory.stderr)")
        try FileIO.writeAtomically(dir + "/plain", [0x41])
        let plain = P.run(["watch", "--socket", dir + "/plain"])
        #expect(plain.stderr.contains("is a regular file, not a socket"), "\(plain.stderr)")
        #expect(asDirectory.status == 2 && plain.status == 2)
    }

    // Item 12: demo's help listed exit 1 for a missed gesture only; --socket in a missing directory exited 1
    // (with the systemd RuntimeDirectory hint) where --plot there exits 2.
    @Test func demoExitStatusesAreTheOnesItsHelpLists() {
        let help = P.run(["demo", "--help"]).stdout
        let one = help.split(separator: "\n").first { $0.hasPrefix("  1  ") } ?? ""
        #expect(one.contains("failed") && one.contains("missed"), "\(one)")
        let plot = P.run(["demo", "--plot", "/nonexistent/p.svg"])
        let socket = P.run(["demo", "--socket", "/nonexistent/x.sock"])
        #expect(plot.status == 2 && socket.status == 2, "plot \(plot.status), socket \(socket.status): \(socket.stderr)")
        #expect(socket.stderr.contains("/nonexistent") && !socket.stderr.contains("RuntimeDirectory"), "\(socket.stderr)")
        let full = P.run(["demo", "--plot", "/dev/full"])
        #expect(full.status == 1 && full.stderr.contains("ENOSPC"), "\(full.stderr)")
    }

    // Item 13: errors named the wrong program.
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

    // Item 15: "…(ENOSPC) (disk full?) (is the directory there and writable?)".
    @Test func oneErrorCarriesOneHint() throws {
        let dir = temporaryDirectory("newuser")
        var text = "# format: imu-trace v1\nt,ax,ay,az,gx,gy,gz\n"
        for k in 0..<200 { text += "\(Double(k) / 100),0,0,9.81,0,0,0\n" }
        try FileIO.writeAtomically(dir + "/t.csv", Array(text.utf8))
        let r = P.run(["replay", dir + "/t.csv", "--plot", "/dev/full"])
        #expect(r.status == 1 && r.stderr.contains("(disk full?)"), "\(r.stderr)")
        #expect(!r.stderr.contains("writable?"), "\(r.stderr)")
    }

    // Item 16: nothing said what ../shared is or where its data comes from.
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
                     "Tests/CommandsTests/FirstUseTests.swift", "Tests/stream/stream_test.py"] {
            let text = String(decoding: try FileIO.read(P.repository + "/" + file), as: UTF8.self)
            #expect(text.contains("needs ../shared"), "\(file) skips without saying so")
        }
    }

    // Item 17: `run --simulated` ignored --i2c, --gpio-chip and the config's calibrationFile.
    @Test func runSimulatedRefusesHardwareOptionsAndReportsTheCalibration() throws {
        for option in ["--i2c", "--gpio-chip"] {
            let r = P.run(["run", "--simulated", "--duration", "0.1", option, "x"])
            #expect(r.status == 2 && r.stderr.contains("\(option) does not apply to run --simulated"), "\(r.stderr)")
        }
        let dir = temporaryDirectory("newuser")
        try FileIO.writeAtomically(dir + "/calibration.json", Array(#"{"version": 1, "gyroBias": [0, 0"#.utf8))
        try FileIO.writeAtomically(dir + "/config.json", Array(#"{"calibrationFile": "\#(dir)/calibration.json"}"#.utf8))
        let r = P.run(["run", "--simulated", "--duration", "0.5", "--config", dir + "/config.json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect((r.stdout + r.stderr).contains("\(dir)/calibration.json"), "\(r.stdout)\n\(r.stderr)")
        #expect((r.stdout + r.stderr).contains("running uncalibrated"), "\(r.stdout)\n\(r.stderr)")
    }

    // Item 18: `replay - </dev/null` said "/dev/stdin: empty…".
    @Test func standardInputIsCalledThat() {
        let r = P.run(["replay", "-"], stdin: "/dev/null")
        #expect(r.status == 1 && r.stderr.contains("standard input") && !r.stderr.contains("/dev/stdin"), "\(r.stderr)")
    }
}

extension String {
    fileprivate var trimmingNewlines: String {
        var s = Substring(self)
        while s.last == "\n" { s = s.dropLast() }
        return String(s)
    }

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
