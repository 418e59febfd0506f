#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Formats
import Simulation
import Cohorts
import Testing
@testable import Commands
import TestSupport

/// The mount as the user meets it: `replay --learn-mount`, `calibrate --mount` (from a recording and on the
/// simulated board) writing the mount file, and `run --simulated` using that file.
@Suite struct MountCommandTests {
    typealias P = HeadtrackProcess

    /// A cohort trial as an imu-trace v1 file, with `frame` as its frame line when given.
    func traceFile(_ trial: CohortTrial, frame: String? = nil, in dir: String, name: String) -> String {
        var meta: [(String, String)] = [("rate_hz", "\(trial.rateHz)")]
        if let frame { meta.append(("frame", frame)) }
        var text = TraceFile.header(metadata: meta, withMagnetometer: false)
        for i in trial.t.indices { text += TraceFile.row(t: trial.t[i], accel: trial.accel[i], gyro: trial.gyro[i], mag: nil) }
        let path = dir + "/" + name
        writeText(text, to: path)
        return path
    }

    static let st26 = HeadtrackProcess.repository + "/Tests/TrackingTests/Fixtures/st26_nod.csv"

    /// The shared headphone nods (worn X back, Y up, Z left): 49 s of continuous nodding, never still.
    @Test func theSharedHeadphoneNodsGiveTheirMount() {
        let r = P.run(["replay", Self.st26, "--learn-mount"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "learned mount: -x,z,y\n")
        // What the motion could not say, it says it took from the frame line.
        #expect(r.stderr.contains("forward from the trace's frame line"))
        #expect(r.stderr.contains("up from the mean gravity over the nods"))
    }

    /// Without its frame line the recording cannot say which way is forward (no nod in it starts from rest).
    @Test func withoutAFrameLineForwardIsNotGuessed() throws {
        let dir = temporaryDirectory("mountcmd")
        let text = String(decoding: try FileIO.read(Self.st26), as: UTF8.self)
        let stripped = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("# frame:") }
        writeText(stripped.joined(separator: "\n"), to: dir + "/nod.csv")
        let r = P.run(["replay", dir + "/nod.csv", "--learn-mount"])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("forward cannot be told from backward"))
    }

    /// A wearer who keeps still and then nods: the motion says the mount, whatever the frame line claims.
    @Test func theMotionOutranksAWrongFrameLine() throws {
        let cohort = GestureCohort(wearers: 40, seed: 3)
        let w = (0..<40).first { cohort.device(wearer: $0).mount.description == "y,z,x" }!
        let g = cohort.guidedMountTrial(wearer: w, askew: 4 * Units.radiansPerDegree, nods: 4)
        let path = traceFile(g.trial, frame: "worn: X forward, Y left, Z up", in: temporaryDirectory("mountcmd"), name: "guided.csv")
        let r = P.run(["replay", path, "--learn-mount"])
        #expect(r.stdout == "learned mount: y,z,x\n", "\(r.stderr)")
        #expect(r.stderr.contains("chin-down swing of a nod begun from rest"))
    }

    @Test func calibrateMountFromARecordingWritesTheFileAndRefusesATilt() throws {
        let dir = temporaryDirectory("mountcmd")
        let cohort = GestureCohort(wearers: 40, seed: 3)
        let w = (0..<40).first { cohort.device(wearer: $0).mount.description == "-x,z,y" }!
        let guided = traceFile(cohort.guidedMountTrial(wearer: w, askew: 4 * Units.radiansPerDegree, nods: 3).trial,
                               in: dir, name: "guided.csv")
        let out = dir + "/mount.json"
        let r = P.run(["calibrate", "--mount", "--trace", guided, "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("learned mount: -x,z,y\n") && r.stdout.contains("saved \(out)"))
        #expect(try MountStore(path: out).load().mount.description == "-x,z,y")

        let tilts = traceFile(cohort.trial(wearer: w, kind: .tilt), in: dir, name: "tilts.csv")
        let refused = P.run(["calibrate", "--mount", "--trace", tilts, "--out", dir + "/tilt-mount.json"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("mount not learned, nothing written"))
        #expect(!FileIO.exists(dir + "/tilt-mount.json"))
        #expect(P.run(["calibrate", "--mount", "--show", "--out", out]).stdout.contains(#""mount": "-x,z,y""#))
    }

    /// The guided step on the simulated board worn as headphones writes the file beside the configured
    /// calibration file; `run --simulated` with that config and no mount then runs with it and says so.
    @Test func runUsesTheMountTheGuidedStepWrote() throws {
        let dir = temporaryDirectory("mountcmd")
        writeText(#"{"calibrationFile": "\#(dir)/calibration.json"}"#, to: dir + "/config.json")
        let before = P.run(["run", "--simulated", "--speed", "0", "--duration", "1", "--worn=-x,z,y", "--config", dir + "/config.json"])
        #expect(before.stdout.contains("headtrack: mount none"), "\(before.stdout)")
        let step = P.run(["calibrate", "--mount", "--simulated", "--worn=-x,z,y", "--config", dir + "/config.json"])
        #expect(step.status == 0, "\(step.stderr)")
        #expect(step.stdout.contains("learned mount: -x,z,y\n"))
        #expect(FileIO.exists(dir + "/mount.json"))
        let r = P.run(["run", "--simulated", "--speed", "0", "--duration", "1", "--worn=-x,z,y", "--config", dir + "/config.json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("headtrack: mount -x,z,y (learned, \(dir)/mount.json)"), "\(r.stdout)")
        // A mount in the config wins over the file.
        writeText(#"{"calibrationFile": "\#(dir)/calibration.json", "mount": "x,y,z"}"#, to: dir + "/config.json")
        let configured = P.run(["run", "--simulated", "--speed", "0", "--duration", "1", "--config", dir + "/config.json"])
        #expect(configured.stdout.contains("headtrack: mount x,y,z (config)"))
    }

    /// Where the mount file cannot be written (a laptop has no /var/lib/headtrack), the guided step still shows
    /// the mount it learned and how to keep it, and its progress shows every nod counted until the third
    /// completes it.
    @Test func aMountThatCannotBeSavedIsStillShownAndEveryNodCounted() throws {
        let dir = temporaryDirectory("mount-unsaved")
        let step = P.run(["calibrate", "--mount", "--simulated", "--worn=-x,z,y", "--out", dir + "/missing/mount.json"])
        #expect(step.status == 1)
        #expect(step.stdout.contains("learned mount: -x,z,y\n"), "\(step.stdout)")
        #expect(step.stderr.contains("--out FILE") && step.stderr.contains("--mount=-x,z,y"), "\(step.stderr)")
        #expect(!FileIO.exists(dir + "/missing/mount.json"))
        for n in ["1 nod\n", "2 nods\n"] {  // the third completes the step: "done"
            #expect(step.stdout.contains(n), "\(n): \(step.stdout)")
        }
    }

    @Test func learnMountRefusesOptionsItWouldIgnore() {
        #expect(P.run(["replay", Self.st26, "--learn-mount", "--events", "/tmp/x.csv"]).status == 2)
        #expect(P.run(["replay", Self.st26, "--learn-mount", "--mount", "x,y,z"]).status == 2)
        #expect(P.run(["calibrate", "--simulated"]).status == 2)
        #expect(P.run(["run", "--simulated", "--worn", "x,x,z"]).status == 2)
    }
}
