#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Gestures
import Testing
import TestSupport
import Tracking
@testable import Formats
@testable import EventStream

/// `explain` lines: a client that subscribes with `"explain":true` is told, for each candidate nod or shake
/// and each change of its verdict, every rule's value against its limit, as `replay --explain` prints them.
/// The truth is analytic motion: a level head pitching down 12° in 0.25 s, holding `hold` seconds, and back
/// up in 0.25 s, in answer mode so that a single nod can be taken.
@Suite(.serialized) struct StreamExplainTests {
    @Test func theScannerTakesExplainAloneOrWithTheOtherKeys() {
        #expect(RequestScannerTests.scan(#"{"type":"subscribe","explain":true}"#)
                == .subscribe(stateHz: nil, calibration: nil, explain: true))
        #expect(RequestScannerTests.scan(#"{"explain":false,"state_hz":5,"type":"subscribe"}"#)
                == .subscribe(stateHz: 5, calibration: nil, explain: false))
        for v in ["1", "\"yes\"", "null"] {
            #expect(RequestScannerTests.scan(#"{"type":"subscribe","explain":\#(v)}"#) == .refused(.badExplain), "\(v)")
        }
        #expect(RequestScannerTests.scan(#"{"type":"subscribe","explain":true,"explain":true}"#) == .refused(.duplicateKey))
    }

    /// The stream and two clients that have read their hello; `listener` subscribed to explain lines and read
    /// its acknowledgement.
    func open(_ name: String) throws -> (EventStream, StreamServerTests.Client, StreamServerTests.Client) {
        var settings = EventStream.Settings()
        settings.socketPath = StreamServerTests.tempPath("explain-" + name)
        let stream = try EventStream(settings: settings, hello: StreamHello(imu: "test", magnetometer: nil,
                                                                           rates: LoopRates(), stateHz: 60))
        let listener = try StreamServerTests.Client(path: settings.socketPath)
        let other = try StreamServerTests.Client(path: settings.socketPath)
        stream.server.poll(t: 0)
        _ = listener.readLines()
        _ = other.readLines()
        say(listener, "{\"type\":\"subscribe\",\"explain\":true}\n")
        stream.server.poll(t: 0.5)
        #expect(listener.readLines() == [#"{"type":"subscribed","state_hz":60,"calibration":true,"explain":true}"#])
        return (stream, listener, other)
    }

    /// Runs the detector over the down-hold-up motion, telling the stream after every sample as the loop does.
    func nod(hold: Double, into stream: EventStream, detector: inout GestureDetector) -> [GestureEvent] {
        var events: [GestureEvent] = []
        for i in 0..<300 {
            let t = Double(i) / 100
            if let e = detector.update(t: t, gyro: AnalyticNod.downHoldUp(t, hold: hold), attitude: .identity) { events.append(e) }
            stream.explain(detector)
        }
        return events
    }

    func nod(hold: Double, into stream: EventStream) -> [GestureEvent] {
        var d = Self.listeningDetector()
        return nod(hold: hold, into: stream, detector: &d)
    }

    static func listeningDetector() -> GestureDetector {
        var d = GestureDetector(settings: GestureDetector.Settings(), headAxesKnown: true)
        d.listening = true
        return d
    }

    func explainLines(_ lines: [String]) throws -> [JSONValue] {
        try lines.map { try JSONParser.parse($0) }.filter { $0["type"] == .string("explain") }
    }

    @Test(arguments: [0.3, 0.5])
    func aLookDownThatHoldsIsExplainedWithItsHoldToTheClientThatAsked(hold: Double) throws {
        let (stream, listener, other) = try open("hold")
        defer { stream.stop(); listener.close(); other.close() }
        #expect(nod(hold: hold, into: stream).isEmpty)
        let lines = try explainLines(listener.readLines())
        let last = try #require(lines.last)
        #expect(last["gesture"] == .string("nod") && last["taken"] == .bool(false) && last["swings"] == .number(2))
        guard case let .array(refusedBy)? = last["refused_by"] else { Issue.record("no refused_by"); return }
        #expect(refusedBy.contains(.string("far-end hold")))
        guard case let .array(rules)? = last["rules"] else { Issue.record("no rules"); return }
        let farEnd = try #require(rules.first { $0["rule"] == .string("far-end hold") })
        // Timed between the swings' fast parts: the hold and a little of each swing's slow end.
        guard case let .number(value)? = farEnd["value"], case let .number(limit)? = farEnd["limit"] else {
            Issue.record("far-end hold has no numbers: \(farEnd)"); return
        }
        #expect(value >= hold && value < hold + 0.15, "\(value)")
        #expect(limit == 0.25 && farEnd["unit"] == .string("s") && farEnd["ok"] == .bool(false)
                && farEnd["at_least"] == .bool(false))
        #expect(try explainLines(other.readLines()).isEmpty, "a client that did not subscribe gets no explain line")
    }

    @Test func aNodThatTurnsBackAtOnceIsExplainedAsTakenWithAnglesInDegrees() throws {
        let (stream, listener, other) = try open("taken")
        defer { stream.stop(); listener.close(); other.close() }
        #expect(nod(hold: 0, into: stream) == [.nod])
        let lines = try explainLines(listener.readLines())
        #expect(lines.count == stream.explainLines, "every line formatted reached the client that asked")
        let last = try #require(lines.last)
        #expect(last["taken"] == .bool(true) && last["refused_by"] == .array([]))
        guard case let .array(rules)? = last["rules"] else { Issue.record("no rules"); return }
        let big = try #require(rules.first { $0["rule"] == .string("widest swing") && $0["at_least"] == .bool(true) })
        // The 12° swing, measured between its threshold crossings: a little under 12°, in degrees on the wire.
        guard case let .number(degrees)? = big["value"] else { Issue.record("no value"); return }
        #expect(degrees > 10 && degrees <= 12 && big["unit"] == .string("°"))
    }

    @Test func aSubscribeWithoutExplainTurnsItOff() throws {
        let (stream, listener, other) = try open("off")
        defer { stream.stop(); listener.close(); other.close() }
        say(listener, "{\"type\":\"subscribe\",\"state_hz\":0}\n")
        stream.server.poll(t: 0.6)
        #expect(listener.readLines() == [#"{"type":"subscribed","state_hz":0,"calibration":true}"#])
        var d = Self.listeningDetector()
        _ = nod(hold: 0.3, into: stream, detector: &d)
        #expect(try explainLines(listener.readLines()).isEmpty)
        #expect(stream.explainLines == 0, "nobody asked: no line was even formatted")
        // Asking again later brings the verdicts judged from then on, not the one judged before it asked.
        say(listener, "{\"type\":\"subscribe\",\"explain\":true}\n")
        stream.server.poll(t: 3.5)
        #expect(listener.readLines() == [#"{"type":"subscribed","state_hz":60,"calibration":true,"explain":true}"#])
        _ = d.update(t: 3.01, gyro: Vector3(0, 0, 0), attitude: .identity)
        stream.explain(d)
        #expect(try explainLines(listener.readLines()).isEmpty, "a verdict from before the subscribe was sent")
    }
}
