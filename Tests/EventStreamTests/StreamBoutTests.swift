#if canImport(Glibc)
import Glibc
#endif
import Gestures
import Testing
import Tracking
@testable import Formats
@testable import EventStream

/// Gesture lines an app can use: the bout id and peak rate on every gesture, the bout on an answer, and a
/// `bout_end` line before the gesture that ended the bout, read off the wire by a real client.
@Suite(.serialized) struct StreamBoutTests {
    @Test func gestureAnswerAndBoutEndCarryTheBout() throws {
        var settings = EventStream.Settings()
        settings.socketPath = StreamServerTests.tempPath("bouts")
        let stream = try EventStream(settings: settings, hello: StreamHello(imu: "test", magnetometer: nil,
                                                                           rates: LoopRates(), stateHz: 60))
        let client = try StreamServerTests.Client(path: settings.socketPath)
        defer { stream.stop(); client.close() }
        stream.server.poll(t: 0)
        _ = client.readLines()

        var bouts = GestureBouts()
        bouts.gesture(.nod, t: 1)
        stream.gesture(.nod, t: 1, start: 0.5, count: 1, bout: 1, peakRate: 1, bouts: bouts)
        say(client, "{\"type\":\"ask\",\"id\":\"q\"}\n")
        stream.server.poll(t: 1.5)
        // A shake ends the nodding bout: its bout_end goes out before the shake, then the answer.
        bouts.gesture(.shake, t: 2)
        stream.gesture(.shake, t: 2, start: 1.6, count: 1, bout: 2, peakRate: 2, bouts: bouts)
        #expect(client.readLines() == [
            #"{"type":"gesture","gesture":"nod","t":1.000,"start":0.500,"count":1,"bout":1,"peak_dps":57.3}"#,
            #"{"type":"bout_end","bout":1,"gesture":"nod","t":2.000,"gestures":1}"#,
            #"{"type":"gesture","gesture":"shake","t":2.000,"start":1.600,"count":1,"bout":2,"peak_dps":114.6}"#,
            #"{"type":"answer","id":"q","gesture":"shake","bout":2,"t":2.000}"#,
        ])
        // Told once: the next tick with the same bouts sends nothing more.
        stream.publishBoutEnd(bouts)
        #expect(client.readLines().isEmpty)
        // Details not known: nulls, as for start and count.
        stream.gesture(.up, t: 3)
        #expect(client.readLines() == [#"{"type":"gesture","gesture":"up","t":3.000,"start":null,"count":null,"bout":null,"peak_dps":null}"#])
    }
}
