#if canImport(Glibc)
import Glibc
#endif
import Fusion
import Geometry
import Testing
@testable import Tracking
@testable import Formats
import TestSupport

/// Reproducers for the parsers: each input used to trap, hang or be silently misread. Each must
/// now be refused with a message naming the file, line (where there is one) and field.
@Suite struct HostileInputTests {
    static let goodCalibration = """
        {"version": 1, "gyroBias": [0.01, 0, 0],
         "magnetometer": {"hardIron": [10, -20, 30], "softIron": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]},
         "magnetometerFit": {"fieldStrength": 48, "relativeResidual": 0.01, "coverage": 0.8, "samples": SAMPLES}}
        """

    // Row 1: "samples": 1e19 / 1e400 / -1e19 trapped converting to Int (and `run` decodes the same file).
    @Test(arguments: ["1e19", "1e400", "-1e19", "17.5", "\"many\""])
    func calibrationSampleCountOutOfRangeIsRefused(samples: String) throws {
        let text = HostileInputTests.goodCalibration.replacingOccurrences("SAMPLES", samples)
        #expect(throws: CalibrationError.self) { try CalibrationStore.decode(text, path: "cal.json") }
        do { _ = try CalibrationStore.decode(text, path: "cal.json") } catch {
            #expect(error.description.hasPrefix("cal.json:3: "), "the file, and the line of the count")
            #expect(error.description.contains("magnetometerFit.samples"))
        }
        // The same text with a sane count is accepted: the refusal is about the number, not the file.
        #expect(try CalibrationStore.decode(HostileInputTests.goodCalibration.replacingOccurrences("SAMPLES", "5120"))
            .magnetometerFit?.samples == 5120)
    }

    /// What the daemon does with such a file: runs uncalibrated with a message, instead of crash-looping.
    @Test func daemonRunsUncalibratedOnAnOutOfRangeFile() throws {
        let dir = temporaryDirectory("hostile")
        let store = CalibrationStore(path: dir + "/calibration.json")
        try FileIO.writeAtomically(store.path, Array(HostileInputTests.goodCalibration.replacingOccurrences("SAMPLES", "1e19").utf8))
        let (calibration, problem) = store.loadKeepingCurrent(nil)
        #expect(calibration == .none)
        #expect(problem?.contains("running uncalibrated") == true)
    }

    @Test func calibrationFieldsOutsidePlausibleRangesAreRefused() {
        let base = HostileInputTests.goodCalibration.replacingOccurrences("SAMPLES", "10")
        for (from, to) in [("[0.01, 0, 0]", "[1e300, 0, 0]"), ("[10, -20, 30]", "[10, -20, 1e9]"),
                           ("\"coverage\": 0.8", "\"coverage\": 7"), ("\"version\": 1", "\"version\": 1.0000001")] {
            let text = base.replacingOccurrences(from, to)
            #expect(text != base)
            #expect(throws: CalibrationError.self, "\(to) accepted") { try CalibrationStore.decode(text) }
        }
    }

    // Row 2: a `window` cell of 1e19 trapped converting to Int.
    @Test func traceWindowOutOfRangeNamesLineAndColumn() throws {
        let text = "# format: imu-trace v1\nt,ax,ay,az,gx,gy,gz,window\n0,0,0,9.81,0,0,0,1\n0.01,0,0,9.81,0,0,0,1e19\n"
        #expect(throws: TraceError.self) { try TraceFile.parse(text, name: "w.csv") }
        do { _ = try TraceFile.parse(text, name: "w.csv") } catch {
            #expect(error.line == 4)
            #expect(error.description.hasPrefix("w.csv:4: "))
            #expect(error.message.contains("'window'"))
        }
        #expect(throws: TraceError.self) { try TraceFile.parse(text.replacingOccurrences("1e19", "2.5"), name: "w.csv") }
        #expect(try TraceFile.parse(text.replacingOccurrences("1e19", "7"), name: "w.csv").records.last?.window == 7)
    }

    // Row 4, first half: t = 1e15 (where adding 1/60 s no longer changes t) is refused at the line.
    @Test func traceTimeOutOfRangeIsRefused() {
        let text = "# format: imu-trace v1\nt,ax,ay,az,gx,gy,gz\n0,0,0,9.81,0,0,0\n1e15,0,0,9.81,0,0,0\n"
        do {
            _ = try TraceFile.parse(text, name: "t.csv")
            Issue.record("t = 1e15 accepted")
        } catch {
            #expect(error.line == 4)
            #expect(error.message.contains("'t'"))
        }
    }

    // Row 4, second half: a gap of 1e7 s (valid times) must be skipped, not ticked through at 60 Hz.
    @Test func replaySkipsAHugeGapInsteadOfTickingThroughIt() throws {
        var text = "# format: imu-trace v1\nt,ax,ay,az,gx,gy,gz\n"
        for k in 0..<100 { text += "\(Double(k) / 100),0,0,9.81,0,0,0\n" }
        for k in 0..<100 { text += "\(1e7 + Double(k) / 100),0,0,9.81,0,0,0\n" }
        let trace = try TraceFile.parse(text, name: "gap.csv")
        var displays: [Double] = []
        Replay.run(trace, settings: Pipeline.Settings()) { event, _ in
            guard case let .display(t, _) = event else { return }
            displays.append(t)
            // 6e8 ticks on the old code: stop the test process rather than eat the machine's memory.
            if displays.count > 1_000_000 { fatalError("replay ticks through the 1e7 s gap") }
        }
        // Two seconds of samples at 60 Hz: about 120 ticks, each inside one of the two recorded stretches.
        #expect(displays.count >= 110 && displays.count <= 125, "\(displays.count) display ticks")
        #expect(displays.allSatisfy { $0 <= 1.0 || ($0 >= 1e7 && $0 <= 1e7 + 1.0) })
        // Ticks stay 1/60 s apart within each stretch.
        let late = displays.filter { $0 >= 1e7 }
        #expect(zip(late, late.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 60) < 1e-6 })
    }

    // Row 5 (parser side): a gyro cell of 1e308 is refused before it reaches a plot.
    @Test func sampleValuesBeyondAnySensorAreRefused() {
        for (column, value) in [(4, "1e308"), (1, "2e3"), (7, "1e5")] {
            var cells = ["0", "0", "0", "9.81", "0", "0", "0", "20", "0", "-40"]
            cells[column] = value
            let text = "# format: imu-trace v1\nt,ax,ay,az,gx,gy,gz,mx,my,mz\n" + cells.joined(separator: ",") + "\n"
            #expect(throws: TraceError.self, "\(value) in column \(column) accepted") { try TraceFile.parse(text, name: "v.csv") }
        }
    }

    // Row 6: 160 000 keys took 67 s (a list scan per key). The limit is a hang guard, not a benchmark: a
    // linear parse takes about a second here, the quadratic one minutes.
    @Test(.timeLimit(.minutes(1))) func manyKeysParseAndDuplicatesAreStillFound() throws {
        var text = "{"
        for k in 0..<320_000 { text += (k == 0 ? "" : ",") + "\"k\(k)\": \(k)" }
        let value = try JSONParser.parse(text + "}")
        guard case let .object(members) = value else { Issue.record("not an object"); return }
        #expect(members.count == 320_000)
        #expect(members.last?.0 == "k319999")
        #expect(throws: JSONError.self) { try JSONParser.parse(text + ", \"k123456\": 1}") }
    }

    // Row 9 (config side): a NaN mount passed every tolerance check.
    @Test(arguments: ["nan,0,0,0,1,0,0,0,1", "1,0,0,0,nan,0,0,0,1", "inf,0,0,0,1,0,0,0,1", "1,0,0,0,1,0,0,0,-nan"])
    func nonFiniteMountIsRefused(text: String) {
        #expect(throws: MountError.self) { try Mount(parsing: text) }
        #expect(throws: ConfigError.self) { try Config.parse("{\"mount\": \"\(text)\"}") }
    }

    // Row 11: invalid UTF-8 in a config string became U+FFFD.
    @Test func invalidUTF8InAConfigStringIsRefused() throws {
        let bytes = Array(#"{"i2c": {"device": "/dev/i2c-"#.utf8) + [0xFF, 0x31] + Array(#""}}"#.utf8)
        #expect(throws: ConfigError.self) { try Config.parse(bytes: bytes) }
        do { _ = try Config.parse(bytes: bytes, path: "c.json") } catch {
            #expect(error.description.contains("c.json"))
            #expect(error.description.contains("UTF-8"))
        }
        // Valid multi-byte UTF-8 is fine.
        #expect(try Config.parse(bytes: Array(#"{"i2c": {"device": "/dev/i2c-é"}}"#.utf8)).i2cDevice == "/dev/i2c-é")
        // A NUL would cut the C path short.
        #expect(throws: ConfigError.self) { try Config.parse(#"{"i2c": {"device": "/dev/i2c-1\u0000x"}}"#) }
    }

    // Row 11: a header naming `t` twice (last column won).
    @Test func headerNamingAColumnTwiceIsRefused() {
        let text = "# format: imu-trace v1\nt,ax,ay,az,gx,gy,gz,t\n0,0,0,9.81,0,0,0,5\n"
        do {
            _ = try TraceFile.parse(text, name: "h.csv")
            Issue.record("duplicate t accepted")
        } catch {
            #expect(error.line == 2)
            #expect(error.message.contains("'t' appears twice"))
        }
    }

    // Row 11: "0.5\0JUNK" in a cell was read as 0.5 (Double(_:) stops at the NUL).
    @Test(arguments: ["0.5\u{0}JUNK", "0x1p3", "0.5 JUNK", "nan", "1_000"])
    func cellWithTrailingJunkIsRefused(cell: String) {
        let text = "# format: imu-trace v1\nt,ax,ay,az,gx,gy,gz\n0,0,0,9.81,\(cell),0,0\n"
        #expect(throws: TraceError.self, "'\(cell)' accepted") { try TraceFile.parse(text, name: "c.csv") }
    }

    // Row 11: LED pin 17.9 was truncated to 17. Integers in JSON must be integers.
    @Test func fractionalPinsAndAddressesAreRefused() throws {
        for text in [#"{"gpio": {"leds": {"nod": 17.9}}}"#, #"{"gpio": {"leds": {"nod": 1e19}}}"#,
                     #"{"i2c": {"imuAddress": 104.5}}"#] {
            #expect(throws: ConfigError.self, "\(text) accepted") { try Config.parse(text) }
        }
        do { _ = try Config.parse(#"{"gpio": {"leds": {"nod": 17.9}}}"#, path: "c.json") } catch {
            #expect(error.description.contains("gpio.leds.nod"))
            #expect(error.description.contains("whole number"))
        }
        #expect(try Config.parse(#"{"gpio": {"leds": {"nod": 16}}}"#).ledLines[0] == 16)
        #expect(try Config.parse(#"{"i2c": {"imuAddress": 105}}"#).imuAddress == 105)
    }

    /// Truth-file times are checked like trace times: 1e400 is infinity, and an infinite bout end would never
    /// be compared meaningfully with a detection.
    @Test func truthTimesOutOfRangeAreRefused() throws {
        for bad in ["1e400", "-1e400", "1e11"] {
            let text = "{\"events\": [{\"label\": \"nod\", \"t_start\": 0.5, \"t_end\": \(bad)}]}"
            #expect(throws: GestureTruthError.self, "t_end \(bad) accepted") { try GestureTruth.parse(text, path: "x.truth.json") }
        }
        #expect(try GestureTruth.parse(#"{"events": [{"label": "nod", "t_start": 0.5, "t_end": 1.5}]}"#).bouts.count == 1)
    }

    /// /dev/zero as a config or calibration file: refused after 16 MiB instead of reading until memory runs out.
    @Test func endlessFilesAreRefusedAtTheLimit() {
        #expect(throws: ConfigError.self) { try Config.load(path: "/dev/zero") }
        #expect(throws: CalibrationError.self) { try CalibrationStore(path: "/dev/zero").load() }
        #expect(throws: FileError.self) { try FileIO.read("/dev/zero", limit: 1 << 20) }
    }
}

extension String {
    /// Plain substring replacement without Foundation.
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        var out = ""
        var rest = self[...]
        while let r = rest.firstRange(of: target) {
            out += rest[..<r.lowerBound] + replacement
            rest = rest[r.upperBound...]
        }
        return out + rest
    }
}
