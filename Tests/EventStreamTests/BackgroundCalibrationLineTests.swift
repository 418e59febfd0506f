#if canImport(Glibc)
import Glibc
#endif
import Geometry
import SensorCalibration
import Testing
import Tracking
@testable import Formats
@testable import EventStream

/// The background calibration's `calibration` lines, read off the wire by a real client while the pipeline
/// learns an iron this test applies: learning first, calibrated with that iron in use at the end.
@Suite(.serialized) struct BackgroundCalibrationLineTests {
    let hardIron = Vector3(26, -12, 8)

    /// A stream whose hello names no magnetometer (a trace without mx,my,mz) sends no `calibration` line: there
    /// is nothing to learn, so "learning, turn your head about" once a second would be wrong. The same head with
    /// a magnetometer named does get them, so the check can tell.
    @Test func noCalibrationLinesWhenTheHelloNamesNoMagnetometer() throws {
        for magnetometer in [nil, "AK8963"] as [String?] {
            var settings = EventStream.Settings()
            settings.socketPath = StreamServerTests.tempPath("no-magnetometer")
            settings.stateHz = 0
            let stream = try EventStream(settings: settings, hello: StreamHello(imu: "test", magnetometer: magnetometer,
                                                                               rates: LoopRates(), stateHz: 0))
            let client = try StreamServerTests.Client(path: settings.socketPath)
            defer { stream.stop(); client.close() }
            stream.server.poll(t: 0)
            var pipeline = Pipeline()
            #expect(pipeline.autoCalibration != nil)
            for k in 1...(3 * 60) {
                let t = Double(k) / 60
                _ = pipeline.processIMU(t: t, accel: Vector3(0, 0, 9.81), gyro: .zero, mag: nil)
                stream.display(t: t, leds: pipeline.displayTick(t: t, dt: 1.0 / 60, fault: false), pipeline: pipeline)
            }
            let kinds = try client.readLines().map { try JSONParser.parse($0)["type"] }
            let calibration = kinds.filter { $0 == .string("calibration") }.count
            if magnetometer == nil {
                #expect(calibration == 0, "\(calibration) calibration lines without a magnetometer")
            } else {
                #expect(calibration >= 2, "\(calibration) calibration lines with one")
            }
        }
    }

    @Test func linesSayLearningThenCalibratedWithTheAppliedIron() throws {
        var settings = EventStream.Settings()
        settings.socketPath = StreamServerTests.tempPath("background-calibration")
        settings.stateHz = 0
        let stream = try EventStream(settings: settings, hello: StreamHello(imu: "test", magnetometer: "AK8963",
                                                                           rates: LoopRates(), stateHz: 0))
        let client = try StreamServerTests.Client(path: settings.socketPath)
        defer { stream.stop(); client.close() }
        stream.server.poll(t: 0)
        var pipeline = Pipeline()
        var lines: [JSONValue] = []
        let dt = 0.005
        var nextDisplay = 0.0
        func truth(_ t: Double) -> Quaternion {
            EulerAngles(roll: 0.9 * Swift.max(0, t - 3), pitch: 1.3 * sin(0.31 * Swift.max(0, t - 3)), yaw: 0.23 * t).quaternion
        }
        for k in 0..<(100 * 200) {
            let t = Double(k) * dt
            let q = truth(t), next = truth(t + dt)
            let step = q.conjugate * next
            let gyro = step.vector * (2 / dt) * (step.w < 0 ? -1 : 1)
            let mag: Vector3? = k % 2 == 0 ? next.inverseRotate(Vector3(0, 20, -45)) + hardIron : nil
            _ = pipeline.processIMU(t: t + dt, accel: next.inverseRotate(Vector3(0, 0, 9.81)), gyro: gyro, mag: mag)
            while t >= nextDisplay {
                stream.display(t: nextDisplay, leds: pipeline.displayTick(t: nextDisplay, dt: 1.0 / 60, fault: false), pipeline: pipeline)
                nextDisplay += 1.0 / 60
            }
            if k % 100 == 0 { lines += try client.readLines().map { try JSONParser.parse($0) } }
        }
        lines += try client.readLines().map { try JSONParser.parse($0) }
        let calibration = lines.filter { $0["type"] == .string("calibration") }
        #expect(calibration.count >= 95 && calibration.count <= 115, "\(calibration.count) lines in 100 s")
        #expect(calibration.allSatisfy { $0["phase"] == .string("background") })
        #expect(calibration.first?["state"] == .string("learning"))
        let last = try #require(calibration.last)
        #expect(last["state"] == .string("calibrated") && last["source"] == .string("learned"))
        let inUse = numbers(last["in_use"]?["hard_iron_ut"])
        #expect(inUse.count == 3 && (Vector3(inUse[0], inUse[1], inUse[2]) - hardIron).length < 0.5, "in use: \(inUse)")
        // The samples the view draws: at most 64 a line, every one a finite raw field of the iron's sphere.
        var points = 0
        for line in calibration {
            guard case let .array(p)? = line["points"] else { Issue.record("no points"); return }
            #expect(p.count <= BackgroundCalibrationFeed.maximumPointsPerLine)
            for item in p {
                let v = numbers(item)
                #expect(v.count == 3 && abs((Vector3(v[0], v[1], v[2]) - hardIron).length - 49.24) < 0.1)
                points += 1
            }
        }
        #expect(points > 200)
        let cells = numbers(last["fit"]?["cells"])
        let perRegion = Double(MagnetometerAutoCalibration.Settings().slotsPerCell)
        #expect(last["per_region"] == .number(perRegion))
        #expect(cells.count == 72 && cells.allSatisfy { $0 >= 0 && $0 <= perRegion })
        #expect(cells.filter { $0 > 0 }.count > 40, "regions holding samples: \(cells.filter { $0 > 0 }.count)")
    }
}
