#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Testing
import Tracking
@testable import Formats
@testable import EventStream

/// `recenter`: after it, every state line carries `yaw_deg`, the head's yaw from where it pointed at the
/// recentre, positive to the left. The truth is the turn this test feeds the gyro, with no magnetometer.
@Suite(.serialized) struct StreamRecenterTests {
    @Test func theScannerTakesARecenterAndSkipsOtherKeys() {
        #expect(RequestScannerTests.scan(#"{"type":"recenter"}"#) == .recenter)
        #expect(RequestScannerTests.scan(#" {"id":"x", "type" : "recenter","why":null} "#) == .recenter)
        #expect(RequestScannerTests.scan(#"{"type":"recenter","v":[1]}"#) == .refused(.nested))
        #expect(RequestScannerTests.scan(#"{"type":"Recenter"}"#) == .refused(.unknownType))
        #expect(RequestLine.read(Array(#"{"type":"recenter"}"#.utf8)).isRecenter)
    }

    /// A head at rest upright for a second, so the filter has its attitude, facing wherever it starts.
    static func settledPipeline() -> (Pipeline, Double) {
        var pipeline = Pipeline(settings: Pipeline.Settings())
        var t = 0.0
        for _ in 0..<200 {
            _ = pipeline.processIMU(t: t, accel: Vector3(0, 0, 9.81), gyro: .zero, mag: nil)
            t += 1.0 / 200
        }
        return (pipeline, t)
    }

    /// Turns the head about up at `dps` (positive: to the left) for `seconds`, at 200 Hz.
    static func turn(_ pipeline: inout Pipeline, t: inout Double, dps: Double, seconds: Double) {
        for _ in 0..<Int((seconds * 200).rounded()) {
            _ = pipeline.processIMU(t: t, accel: Vector3(0, 0, 9.81), gyro: Vector3(0, 0, dps * .pi / 180), mag: nil)
            t += 1.0 / 200
        }
    }

    func states(_ lines: [String]) throws -> [JSONValue] {
        try lines.map { try JSONParser.parse($0) }.filter { $0["type"] == .string("state") }
    }

    func yaw(_ v: JSONValue?) -> Double? {
        if case let .number(n)? = v { return n }
        return nil
    }

    @Test func yawStartsAtZeroAndFollowsTheTurnPositiveToTheLeft() throws {
        var settings = EventStream.Settings()
        settings.socketPath = StreamServerTests.tempPath("recenter")
        let stream = try EventStream(settings: settings, hello: StreamHello(imu: "test", magnetometer: nil,
                                                                           rates: LoopRates(), stateHz: 60))
        let asker = try StreamServerTests.Client(path: settings.socketPath)
        let other = try StreamServerTests.Client(path: settings.socketPath)
        defer { stream.stop(); asker.close(); other.close() }
        var (pipeline, t) = Self.settledPipeline()
        // Face somewhere that is not yaw 0 first, so a zero that was never taken would show.
        Self.turn(&pipeline, t: &t, dps: 60, seconds: 1)
        stream.display(t: t, leds: 0, pipeline: pipeline)
        _ = other.readLines()
        let before = try states(asker.readLines())
        #expect(before.count == 1 && before[0]["yaw_deg"] == nil, "no yaw_deg before any recenter")

        say(asker, "{\"type\":\"recenter\"}\n")
        // The next display tick (the samples' clock stays where it is: a gap would be a jump to the filter).
        stream.display(t: t + 0.02, leds: 0, pipeline: pipeline)
        for client in [asker, other] {
            let lines = client.readLines()
            let kinds = try lines.map { try JSONParser.parse($0)["type"] }
            #expect(kinds == [.string("recentered"), .string("state")], "\(lines)")
            let s = try states(lines)
            #expect(yaw(s.first?["yaw_deg"]).map { abs($0) <= 0.01 } == true, "\(lines)")
        }

        // 30° to the left (1 s at 30 °/s), then 50° to the right: +30, then −20.
        Self.turn(&pipeline, t: &t, dps: 30, seconds: 1)
        stream.display(t: t, leds: 0, pipeline: pipeline)
        let left = yaw(try states(asker.readLines()).last?["yaw_deg"])
        #expect(left.map { abs($0 - 30) < 1 } == true, "\(String(describing: left))")
        Self.turn(&pipeline, t: &t, dps: -50, seconds: 1)
        stream.display(t: t, leds: 0, pipeline: pipeline)
        let right = yaw(try states(asker.readLines()).last?["yaw_deg"])
        #expect(right.map { abs($0 + 20) < 1 } == true, "\(String(describing: right))")
    }

    @Test func relativeYawWrapsToAHalfTurnEitherWay() {
        let deg = Double.pi / 180
        #expect(abs(EventStream.relativeYawDegrees(179 * deg, zero: -179 * deg) - -2) < 1e-9)
        #expect(abs(EventStream.relativeYawDegrees(-179 * deg, zero: 179 * deg) - 2) < 1e-9)
        #expect(abs(EventStream.relativeYawDegrees(10 * deg, zero: 10 * deg)) < 1e-12)
        #expect(abs(EventStream.relativeYawDegrees(180 * deg, zero: 0) - 180) < 1e-9)
        #expect(abs(EventStream.relativeYawDegrees(-90 * deg, zero: 90 * deg) - 180) < 1e-9)
    }
}
