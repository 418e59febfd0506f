#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Formats
import Service
import TestSupport
import Testing
@testable import Commands

/// `calibrate` from a trace: the file it writes and `--show` reads, and `--socket` (with `--speed`) streaming
/// the same fit it saves.
@Suite struct CalibrateCommandTests: InProcessCommands {
    @Test func calibrateFromATraceWritesAFileAndShowReadsIt() throws {
        // A recorded tumble through every direction with known hard iron, as an imu-trace file.
        let hardIron = Vector3(12, -30, 5)
        let text = Self.tumbleTrace(hardIron: hardIron, samples: 4000)
        let trace = temporaryPath("tumble.csv"), out = temporaryPath("calibration.json")
        try FileIO.writeAtomically(trace, Array(text.utf8))
        defer { unlink(trace); unlink(out); unlink(out + ".previous") }
        #expect(run(["calibrate", "--trace", trace, "--skip-gyro", "--out", out]) == 0)
        let saved = try CalibrationStore(path: out).load()
        #expect((saved.magnetometer.hardIron - hardIron).length < 0.3)
        #expect(run(["calibrate", "--show", "--out", out]) == 0)
        // Without --skip-gyro the trace never holds still: refused, and the file is untouched.
        #expect(run(["calibrate", "--trace", trace, "--out", out]) == 1)
        #expect(try CalibrationStore(path: out).load() == saved)
    }

    /// A sensor tumbling through every direction at 100 Hz in a 49 µT field plus `hardIron`, as an imu-trace.
    static func tumbleTrace(hardIron: Vector3, samples: Int) -> String {
        var text = TraceFile.header(metadata: [("rate_hz", "100")], withMagnetometer: true)
        for i in 0..<samples {
            let t = Double(i) * 0.01
            let q = EulerAngles(roll: 0.9 * t, pitch: 1.3 * sin(0.31 * t), yaw: 0.23 * t).quaternion
            text += TraceFile.row(t: t, accel: q.inverseRotate(Vector3(0, 0, 9.81)), gyro: .zero,
                                  mag: q.inverseRotate(Vector3(0, 20, -45)) + hardIron)
        }
        return text
    }

    @Test func showingACorruptFileFails() throws {
        let out = temporaryPath("corrupt.json")
        try FileIO.writeAtomically(out, Array("{\"version\": 1, \"gyroBias\": [0,".utf8))
        defer { unlink(out) }
        #expect(run(["calibrate", "--show", "--out", out]) == 1)
    }

    @Test func speedNeedsATraceAndASocket() {
        let r = HeadtrackProcess.run(["calibrate", "--trace", "/tmp/x.csv", "--speed", "4"])
        #expect(r.status == 2 && r.stderr.contains("needs --trace and --socket"))
        #expect(HeadtrackProcess.run(["calibrate", "--trace", "/tmp/x.csv", "--socket", "/tmp/s.sock", "--speed", "0.001"]).status == 2)
    }

    @Test func streamingTheCalibrationSavesTheSameFit() throws {
        let hardIron = Vector3(-20, 8, 33)
        let text = CalibrateCommandTests.tumbleTrace(hardIron: hardIron, samples: 5000)
        let trace = temporaryPath("tumble.csv"), plain = temporaryPath("plain.json"), streamed = temporaryPath("streamed.json")
        let socket = temporaryPath("cal.sock")
        try FileIO.writeAtomically(trace, Array(text.utf8))
        defer { for p in [trace, plain, streamed, socket] { unlink(p) } }
        #expect(run(["calibrate", "--trace", trace, "--skip-gyro", "--out", plain]) == 0)
        #expect(run(["calibrate", "--trace", trace, "--skip-gyro", "--out", streamed, "--socket", socket, "--speed", "0"]) == 0)
        var a = try CalibrationStore(path: plain).load(), b = try CalibrationStore(path: streamed).load()
        #expect((a.magnetometer.hardIron - hardIron).length < 0.3)
        a.createdUnixTime = nil
        b.createdUnixTime = nil
        #expect(a == b)
        #expect(!FileIO.exists(socket))  // the stream's socket is gone after the run
    }

    // `run` decodes the calibration file at start; once a sample count of 1e19 trapped and systemd
    // restarted it every 2 s. The daemon's loader must run uncalibrated instead.
    @Test func daemonCalibrationLoaderSurvivesAnOutOfRangeFile() throws {
        let dir = temporaryDirectory("hostile-cmd")
        let path = dir + "/calibration.json"
        let text = """
            {"version": 1, "gyroBias": [0.01, 0, 0],
             "magnetometer": {"hardIron": [10, -20, 30], "softIron": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]},
             "magnetometerFit": {"fieldStrength": 48, "relativeResidual": 0.01, "coverage": 0.8, "samples": 1e19}}
            """
        try FileIO.writeAtomically(path, Array(text.utf8))
        let start = StartingCalibration.guided(path)
        #expect(start.calibration == .none)
        #expect(start.notes.count == 1, "the daemon says once why it runs uncalibrated: \(start.notes)")
        // `calibrate --show` reports it as an error instead of trapping.
        #expect(run(["calibrate", "--show", "--out", path]) == 1)
    }
}
