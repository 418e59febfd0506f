import LibC
import Formats
import Geometry
import Service
import Simulation
import Testing
import Tracking
@testable import Commands

/// What is measured is what runs: the same trace with the same mount through every entry point a
/// user has — `replay --mount`, `replay --config` (the config route that `run` takes: `Config.pipelineSettings`),
/// `eval gestures --mount` — gives byte-identical gesture events, and the loop `run` builds from a config with a
/// mount applies the head-axes rule. The tilt trace makes the rule matter: without it a tilt toward a shoulder
/// and back is taken for a nod, so dropping the rule on any one path breaks the equality and the truth.
@Suite struct EntryPointEqualityTests: InProcessCommands {
    static let headphone = "-x,z,y"   // the shared recordings' sensor: X back, Y up, Z left

    /// Four tilts toward a shoulder and back (roll 25° in 0.25 s, held 0.1 s, back in 0.25 s, 1.5 s apart) at
    /// 50 Hz, as a headphone sensor worn `headphone` measures them. Quick tilts: one held longer at its far end
    /// is refused by the nod rules with or without a mount, and would not tell the mount rule apart. Gyro and
    /// specific force from the motion
    /// itself: rate (φ', 0, 0) and R(φ)ᵀ·(0, 0, g) in the head frame (x forward, y left, z up), put into sensor
    /// axes through the mount. Truth: no nod, no shake.
    static func tiltTrace() throws -> String {
        let mount = try Mount(parsing: headphone)
        let hz = 50.0, swing = 0.25, hold = 0.1, angle = 25 * Units.radiansPerDegree, g = 9.81
        var text = "# format: imu-trace v1\n# rate_hz: 50\nt,ax,ay,az,gx,gy,gz,mx,my,mz\n"
        for i in 0..<Int(8 * hz) {
            let t = Double(i) / hz
            let u = (t - 1).truncatingRemainder(dividingBy: 1.5)   // time inside the current tilt
            var roll = 0.0, rate = 0.0
            if t >= 1 && t < 7 {
                if u < swing {
                    roll = angle * (1 - cos(Double.pi * u / swing)) / 2
                    rate = angle * Double.pi / (2 * swing) * sin(Double.pi * u / swing)
                } else if u < swing + hold {
                    roll = angle
                } else if u < 2 * swing + hold {
                    let v = u - swing - hold
                    roll = angle * (1 + cos(Double.pi * v / swing)) / 2
                    rate = -angle * Double.pi / (2 * swing) * sin(Double.pi * v / swing)
                }
            }
            let accel = mount.unapply(Vector3(0, g * sin(roll), g * cos(roll)))
            let gyro = mount.unapply(Vector3(rate, 0, 0))
            text += TraceFile.row(t: t, accel: accel, gyro: gyro, mag: nil)
        }
        return text
    }

    func write(_ text: String, _ name: String) -> String { write(text, at: temporaryPath(name)) }

    func write(_ text: String, at path: String) -> String {
        let f = fopen(path, "w")!
        fputs(text, f)
        fclose(f)
        return path
    }

    func read(_ path: String) -> String { HeadtrackProcess.read(path) }

    /// `replay … --events FILE`: the "t,event" rows.
    func replayEvents(_ trace: String, _ options: [String]) -> [String] {
        let out = temporaryPath("events.csv")
        defer { unlink(out) }
        let status = run(["replay", trace, "--events", out] + options)
        #expect(status == 0, "replay \(options)")
        return read(out).split(separator: "\n").dropFirst().map(String.init)
    }

    /// `eval gestures … --json`: its detections as the same "t,event" rows.
    func evalEvents(_ trace: String, _ options: [String]) throws -> [String] {
        let out = temporaryPath("eval.json")
        defer { unlink(out) }
        // The lab prints the JSON on stdout: run it as a child so this process's stdout is left alone.
        let r = HeadtrackProcess.run(executable: HeadtrackProcess.binary + "-lab", ["eval", "gestures", trace, "--json"] + options)
        #expect(r.status == 0, "eval gestures \(options): \(r.stderr)")
        guard case let .object(top) = try JSONParser.parse(bytes: Array(r.stdout.utf8)),
              case let .array(files)? = top.first(where: { $0.0 == "files" })?.1,
              case let .object(file)? = files.first,
              case let .array(detections)? = file.first(where: { $0.0 == "detections" })?.1 else {
            Issue.record("no detections in \(r.stdout.prefix(300))")
            return []
        }
        return detections.compactMap { d -> String? in
            guard case let .object(fields) = d, case let .number(t)? = fields.first(where: { $0.0 == "t" })?.1,
                  case let .string(e)? = fields.first(where: { $0.0 == "event" })?.1 else { return nil }
            return "\(fixed(t, 4)),\(e)"
        }
    }

    /// `extra` goes to every entry point (`--ask`: answer mode, as if a question were pending throughout).
    func everyEntryPoint(_ trace: String, _ extra: [String] = []) throws -> (replayMount: [String], replayConfig: [String], eval: [String]) {
        let config = write(#"{"mount": "\#(Self.headphone)"}"#, "config.json")
        defer { unlink(config) }
        return (replayEvents(trace, ["--mount=\(Self.headphone)"] + extra), replayEvents(trace, ["--config", config] + extra),
                try evalEvents(trace, ["--mount=\(Self.headphone)"] + extra))
    }

    @Test func tiltsGiveTheSameEventsEverywhereAndNoneOfThemIsANod() throws {
        let trace = write(try Self.tiltTrace(), "tilts.csv")
        // eval gestures scores against the labels beside the trace: none here.
        let truth = write(#"{"events": []}"#, at: GestureTruth.path(forTrace: trace))
        defer { unlink(trace); unlink(truth) }
        // The trace tells the rule apart: with the sensor's axes taken for the head's, tilts are (single) nods,
        // which answer mode takes (always-on needs two cycles, so it takes none either way).
        let unmounted = replayEvents(trace, ["--ask"])
        #expect(unmounted.contains { $0.hasSuffix(",nod") }, "without a mount the tilts should read as nods: \(unmounted)")
        let paths = try everyEntryPoint(trace, ["--ask"])
        #expect(paths.replayMount == paths.replayConfig, "replay --mount \(paths.replayMount) / --config \(paths.replayConfig)")
        #expect(paths.replayMount == paths.eval, "replay --mount \(paths.replayMount) / eval gestures \(paths.eval)")
        #expect(paths.replayMount.isEmpty, "tilts are no gesture: \(paths.replayMount)")
    }

    @Test func aRecordedNodGivesTheSameEventsEverywhere() throws {
        let trace = HeadtrackProcess.repository + "/Tests/TrackingTests/Fixtures/st26_nod.csv"
        let paths = try everyEntryPoint(trace)
        #expect(paths.replayMount.contains { $0.hasSuffix(",nod") }, "\(paths.replayMount)")
        #expect(!paths.replayMount.contains { $0.hasSuffix(",shake") }, "\(paths.replayMount)")
        #expect(paths.replayMount == paths.replayConfig)
        #expect(paths.replayMount == paths.eval)
    }

    /// The loop `run` builds (the one place a TrackerLoop is made) takes its pipeline from the config, so a
    /// config's mount reaches the detector there too.
    @Test func theLoopRunBuildsFromAConfigAppliesTheHeadAxesRule() throws {
        for (text, known) in [(#"{"mount": "\#(Self.headphone)"}"#, true), ("{}", false)] {
            let config = try Config.parse(text)
            let board = SimulatedBoard(motion: .demoStory)
            let session = try TrackerSession(bus: board.bus, lines: board.leds, clock: board.clock, config: config)
            #expect(session.loop.pipeline.recognizer.headAxesKnown == known, "\(text)")
            #expect(session.loop.pipeline.settings.mount == config.mount)
        }
    }
}
