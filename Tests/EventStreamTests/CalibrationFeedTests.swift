#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Indicators
import SensorCalibration
import Testing
import Tracking
@testable import Formats
@testable import EventStream

/// `calibration` lines (`CalibrationFeed`), read off the wire by a real client: the samples, the fit and its
/// cells, the widest line, and the rate a client gets them at.
@Suite(.serialized) struct CalibrationFeedTests {
    /// A sensor turned through every direction in a 49 µT field, with a hard iron this test applies.
    static let hardIron = Vector3(12, -30, 5)
    static func tumbleSession() -> CalibrationSession {
        var settings = CalibrationSession.Settings()
        settings.measureGyro = false
        var session = CalibrationSession(settings: settings)
        for i in 0..<6000 where session.phase != .complete {
            let t = Double(i) * 0.01
            let q = EulerAngles(roll: 0.9 * t, pitch: 1.3 * sin(0.31 * t), yaw: 0.23 * t).quaternion
            session.add(t: t, gyro: .zero, accel: q.inverseRotate(Vector3(0, 0, 9.81)),
                        mag: q.inverseRotate(Vector3(0, 20, -45)) + hardIron)
        }
        return session
    }

    @Test func calibrationLinesCarryEverySampleOnceInOrder() throws {
        let session = Self.tumbleSession()
        #expect(session.phase == .complete)
        let feed = CalibrationFeed()
        var received: [[Double]] = []
        var lines = 0
        while feed.sent < session.magSamples.count {
            feed.format(session, t: Double(lines), phase: "turn", progress: session.progressText(at: 0))
            let m = try JSONParser.parse(feed.text)
            #expect(m["first"] == .number(Double(received.count)))
            #expect(m["kept"] == .number(Double(session.magSamples.count)))
            guard case let .array(points)? = m["points"] else { Issue.record("no points"); return }
            #expect(points.count <= CalibrationFeed.maximumPointsPerLine && !points.isEmpty)
            received += points.map { numbers($0) }
            lines += 1
        }
        #expect(received.count == session.magSamples.count)
        for (got, sample) in zip(received, session.magSamples) {
            #expect(abs(got[0] - sample.x) <= 0.005 && abs(got[1] - sample.y) <= 0.005 && abs(got[2] - sample.z) <= 0.005)
        }
    }

    @Test func theFitAndItsCellsAreTheStopRulesOwn() throws {
        let session = Self.tumbleSession()
        guard let fit = session.stopRule.latest else { Issue.record("no fit"); return }
        let feed = CalibrationFeed()
        feed.format(session, t: 1, phase: "complete", progress: "done")
        let m = try JSONParser.parse(feed.text)
        let f = m["fit"]
        let hard = numbers(f?["hard_iron_ut"])
        #expect(hard.count == 3 && abs(hard[0] - 12) < 0.01 && abs(hard[1] + 30) < 0.01 && abs(hard[2] - 5) < 0.01)
        let cells = numbers(f?["cells"])
        let perCell = Double(session.settings.stopRule.stopCriteria.samplesPerCell)
        #expect(m["need"]?["per_cell"] == .number(perCell))
        #expect(cells.count == 72 && m["cell_grid"]?["bands"] == .number(6) && m["cell_grid"]?["sectors"] == .number(12))
        // The coverage sent is the share of cells holding enough samples, counted here from the cells sent.
        let covered = Double(cells.filter { $0 >= perCell }.count) / 72
        #expect(f?["coverage"] == .number((fit.coverage * 10000).rounded() / 10000))
        #expect(abs(covered - fit.coverage) < 1e-9)
        // Every inlier is in one cell, and the cells are where the corrected samples point.
        #expect(cells.reduce(0, +) == (fit.inlierFraction * Double(fit.samples)).rounded())
        var own = SphereCoverage()
        for s in session.magSamples { own.add(direction: fit.correction.apply(s)) }
        #expect(own.counts.map(Double.init) == cells)  // the synthetic tumble has no outliers
    }

    @Test func aLineWithTheLargestValuesStillFits() throws {
        // Samples of a field saturating a 16-bit magnetometer with a large hard iron: every number at its widest.
        var settings = CalibrationSession.Settings()
        settings.measureGyro = false
        settings.stopRule.gateMicrotesla = 0.001
        var session = CalibrationSession(settings: settings)
        for i in 0..<200 {
            session.add(t: Double(i), gyro: .zero, accel: Vector3(0, 0, 9.81),
                        mag: Vector3(-4912.99 + Double(i), -4912.99, -4912.99 + Double(i % 7)))
        }
        let feed = CalibrationFeed()
        feed.format(session, t: 1e6, phase: "turn", progress: String(repeating: "p", count: 300))
        #expect(feed.sent == CalibrationFeed.maximumPointsPerLine)
        guard case let .array(points)? = try JSONParser.parse(feed.text)["points"] else { Issue.record("no points"); return }
        #expect(points.count == CalibrationFeed.maximumPointsPerLine)
    }

    @Test func calibrationLinesReachAClientAtFiveAHertz() throws {
        let session = Self.tumbleSession()
        let (stream, client) = try openStream("calibration")
        defer { stream.stop(); client.close() }
        let feed = CalibrationFeed()
        var sent = 0
        for i in 0..<1000 where feed.publish(session, t: Double(i) * 0.001, to: stream) { sent += 1 }
        feed.finish(session, t: 1, outcome: .refused("too little rotation"), to: stream)
        let lines = try client.readLines().map { try JSONParser.parse($0) }.filter { $0["type"] == .string("calibration") }
        #expect(sent == 5 && lines.count == 6)  // 1 s in 1 ms steps: t = 0, 0.2, 0.4, 0.6, 0.8; then the last
        #expect(lines.last?["phase"] == .string("refused") && lines.last?["progress"] == .string("too little rotation"))
    }
}
