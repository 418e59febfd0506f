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

/// The lines `EventStream` writes, read off the wire by a real client: the north LED's sector in the hello and the
/// head's rates in state lines.
@Suite(.serialized) struct EventStreamTests {
    @Test func helloNamesTheNorthLedsSector() throws {
        let (stream, client) = try openStream("hello")
        defer { stream.stop(); client.close() }
        let hello = try JSONParser.parse(client.readLines()[0])
        #expect(hello["north_led_deg"] == .number(LedPanel.Settings.default.northHalfWidth))
        #expect(hello["north_led_hysteresis_deg"] == .number(LedPanel.Settings.default.northHysteresis))
        #expect(hello["version"] == .number(1))
    }

    @Test func stateLinesCarryTheHeadFrameRatesTheWearerTurnsAt() throws {
        // The sensor sits with its x up and its z pointing back (mount: forward = −z, left = y, up = x); the
        // wearer turns left at 40 °/s and rolls towards the right ear at 10 °/s. In the head frame that is
        // +40 °/s about z (up) and +10 °/s about x (forward), whatever axes the sensor used.
        var settings = Pipeline.Settings()
        settings.mount = Mount(forward: Vector3(0, 0, -1), left: Vector3(0, 1, 0), up: Vector3(1, 0, 0))
        var pipeline = Pipeline(settings: settings)
        let sensorGyro = Vector3(40, 0, -10) * (Double.pi / 180)  // head z = sensor x, head x = −sensor z
        for i in 0..<100 {
            _ = pipeline.processIMU(t: Double(i) / 200, accel: Vector3(9.81, 0, 0), gyro: sensorGyro, mag: nil)
        }
        let leds = pipeline.displayTick(t: 0.5, dt: 1.0 / 60, fault: false)
        let (stream, client) = try openStream("rates")
        defer { stream.stop(); client.close() }
        stream.display(t: 0.5, leds: leds, pipeline: pipeline)
        let state = try client.readLines().map { try JSONParser.parse($0) }.first { $0["type"] == .string("state") }
        let rates = numbers(state?["rates_dps"])
        #expect(rates.count == 3)
        let want = [10.0, 0, 40.0]
        let bias = pipeline.filter.gyroBias * (180 / Double.pi)
        // Within the filter's bias estimate (a few tenths of a degree per second after half a second) and the
        // one decimal sent.
        for (got, expected) in zip(rates, want) { #expect(abs(got - expected) <= bias.length + 0.06, "\(rates)") }
        #expect(bias.length < 1)
    }
}
