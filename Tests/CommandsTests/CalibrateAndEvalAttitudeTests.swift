#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Formats
import Testing
@testable import Commands
import LabCommands

@Suite struct CalibrateAndEvalAttitudeTests: InProcessCommands {
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

    @Test func evalAttitudeOptions() {
        #expect(lab(["eval", "attitude", "--help"]) == 0)
        #expect(lab(["eval", "attitude"]) == 2)
        #expect(lab(["eval", "attitude", "--mode", "12d", "--synthetic"]) == 2)
        #expect(lab(["eval", "attitude", "/nonexistent/trial.csv"]) == 1)
    }
}
