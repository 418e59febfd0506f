#if canImport(Glibc)
import Glibc
#endif
import Fusion
import Geometry
import Formats
import Testing
@testable import Commands
import LabCommands

/// End to end on a real recording (32 s of BROAD trial 21, fast combined motion, CC BY 4.0: see
/// Tests/EvaluationTests/Fixtures/LICENSE-NOTE.md): put a known hard and soft iron on its magnetometer,
/// `calibrate --trace` the distorted file, and check with `replay --calibration` that the heading comes back.
@Suite struct CalibrationReplayTests: InProcessCommands {
    static let fixtures: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)   // CommandsTests/CalibrationReplayTests.swift
        return parts.joined(separator: "/") + "/EvaluationTests/Fixtures/"
    }()
    static let realTurn = fixtures + "broad_21_fast_combined_excerpt.csv"

    // The distortion: 30 µT hard iron, axis gains +20 % / −15 % / 0 with symmetric cross terms.
    static let hardIron = Vector3(26, -12, 8)
    static let softIron = Matrix3(rows: Vector3(1.20, 0.10, 0.05), Vector3(0.10, 0.85, -0.08), Vector3(0.05, -0.08, 1.00))

    /// The fixture with mx,my,mz replaced by softIron · m + hardIron (text in, text out: the test does not
    /// trust the trace writer it is testing around).
    func distortedCopy(of path: String) throws -> String {
        let text = try FileIO.readText(path)
        var out = ""
        var magColumn: Int?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") || line.isEmpty { out += line + "\n"; continue }
            var cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if magColumn == nil { magColumn = cells.firstIndex(of: "mx"); out += line + "\n"; continue }
            let c = try #require(magColumn)
            let m = Vector3(try #require(Double(cells[c])), try #require(Double(cells[c + 1])), try #require(Double(cells[c + 2])))
            let d = CalibrationReplayTests.softIron * m + CalibrationReplayTests.hardIron
            cells[c] = "\(d.x)"; cells[c + 1] = "\(d.y)"; cells[c + 2] = "\(d.z)"
            out += cells.joined(separator: ",") + "\n"
        }
        let copy = temporaryPath("distorted.csv")
        try FileIO.writeAtomically(copy, Array(out.utf8))
        return copy
    }

    /// Heading RMSE (°) of `replay TRACE [--calibration FILE] --attitude OUT` against the trace's truth, over
    /// the moving samples: e = q_est ⊗ q_true⁻¹, heading error 2·atan(|e_z / e_w|).
    func replayHeadingRMSE(_ trace: String, calibration: String? = nil) throws -> Double {
        let attitude = temporaryPath("attitude.csv")
        defer { unlink(attitude) }
        var args = ["replay", trace, "--attitude", attitude]
        if let c = calibration { args += ["--calibration", c] }
        #expect(run(args) == 0)
        var estimates: [Int: Quaternion] = [:]
        for line in try FileIO.readText(attitude).split(separator: "\n").dropFirst() {
            let v = line.split(separator: ",", omittingEmptySubsequences: false).prefix(5).compactMap { Double($0) }
            guard v.count == 5 else { continue }
            estimates[Int((v[0] * 1e4).rounded())] = Quaternion(w: v[1], x: v[2], y: v[3], z: v[4])
        }
        let recording = try TraceFile.read(path: trace)
        var sum = 0.0, n = 0
        for r in recording.records where r.moving == true {
            guard let truth = r.truth, let q = estimates[Int((r.t * 1e4).rounded())] else { continue }
            let e = q * truth.conjugate
            let h = 2 * atan(abs(e.z / e.w))
            sum += h * h; n += 1
        }
        #expect(n > 1500)
        return (sum / Double(max(n, 1))).squareRoot() * Units.degreesPerRadian
    }

    @Test func replayWithTheCalibrationFromADistortedRealTraceRestoresTheHeading() throws {
        let distorted = try distortedCopy(of: CalibrationReplayTests.realTurn)
        let calibration = temporaryPath("calibration.json")
        defer { unlink(distorted); unlink(calibration); unlink(calibration + ".previous") }
        #expect(run(["calibrate", "--trace", distorted, "--skip-gyro", "--out", calibration]) == 0)
        let saved = try CalibrationStore(path: calibration).load()
        #expect((saved.magnetometer.hardIron - CalibrationReplayTests.hardIron).length < 2.0,
                "hard iron \(saved.magnetometer.hardIron)")

        let clean = try replayHeadingRMSE(CalibrationReplayTests.realTurn)
        let uncalibrated = try replayHeadingRMSE(distorted)
        let calibrated = try replayHeadingRMSE(distorted, calibration: calibration)
        // Negative control: the distortion really breaks the heading.
        #expect(uncalibrated > clean + 20, "uncalibrated distorted \(uncalibrated)° vs clean \(clean)°")
        #expect(abs(calibrated - clean) < 1.0, "calibrated \(calibrated)° vs clean \(clean)°")
        // eval attitude takes the same file and scores the same pipeline.
        #expect(lab(["eval", "attitude", distorted, "--mode", "9d", "--calibration", calibration]) == 0)
    }

    @Test func aRealTraceThatBarelyTurnsIsRefusedForTooLittleRotation() throws {
        // 22 s of BROAD trial 01: 6 s still, then one slow turn through a sixth of the directions.
        let out = temporaryPath("calibration.json")
        defer { unlink(out) }
        #expect(run(["calibrate", "--trace", CalibrationReplayTests.fixtures + "broad_01_slow_rotation_excerpt.csv",
                     "--skip-gyro", "--out", out]) == 1)
        #expect(!FileIO.exists(out))
    }

    @Test func aTraceWithoutMagnetometerIsRefusedAsSuch() throws {
        let trace = temporaryPath("nomag.csv"), out = temporaryPath("calibration.json")
        var text = TraceFile.header(metadata: [("rate_hz", "100")], withMagnetometer: false)
        for i in 0..<2000 {
            text += TraceFile.row(t: Double(i) * 0.01, accel: Vector3(0, 0, 9.81), gyro: Vector3(0.5, 0.2, 0), mag: nil)
        }
        try FileIO.writeAtomically(trace, Array(text.utf8))
        defer { unlink(trace); unlink(out) }
        #expect(run(["calibrate", "--trace", trace, "--skip-gyro", "--out", out]) == 1)
        #expect(!FileIO.exists(out))
    }

    @Test func replayRefusesAnUnreadableCalibration() throws {
        let bad = temporaryPath("bad.json")
        try FileIO.writeAtomically(bad, Array("{\"version\": 1".utf8))
        defer { unlink(bad) }
        #expect(run(["replay", CalibrationReplayTests.realTurn, "--calibration", bad]) == 1)
        #expect(run(["replay", CalibrationReplayTests.realTurn, "--calibration", "/nonexistent/c.json"]) == 1)
    }
}
