#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Testing
import Tracking
@testable import Formats
@testable import EventStream

/// The scanner's side of `subscribe`: which keys it takes and what it refuses before the server sees it.
struct SubscribeScannerTests {
    static func scan(_ s: String) -> ClientRequest { RequestScannerTests.scan(s) }

    @Test func keysInAnyOrderEitherOrBoth() {
        #expect(Self.scan(#"{"type":"subscribe","state_hz":10}"#) == .subscribe(stateHz: 10, calibration: nil))
        #expect(Self.scan(#"{"calibration":false,"type":"subscribe"}"#) == .subscribe(stateHz: nil, calibration: false))
        #expect(Self.scan(#" { "state_hz" : 2.5e0 , "calibration" : true , "type" : "subscribe" } "#)
                == .subscribe(stateHz: 2.5, calibration: true))
        #expect(Self.scan(#"{"type":"subscribe","state_hz":0}"#) == .subscribe(stateHz: 0, calibration: nil))
        #expect(Self.scan(#"{"type":"subscribe","state_hz":-0}"#) == .subscribe(stateHz: 0, calibration: nil))
        // Above any stream's rate is the server's to refuse: the scanner does not know the rate.
        #expect(Self.scan(#"{"type":"subscribe","state_hz":1e3}"#) == .subscribe(stateHz: 1000, calibration: nil))
        // Unknown keys, and an ask's keys, are skipped.
        #expect(Self.scan(#"{"type":"subscribe","id":"q","timeout_s":"x","v":[],"state_hz":5}"#) == .refused(.nested))
        #expect(Self.scan(#"{"type":"subscribe","id":"q","timeout_s":"x","v":null,"state_hz":5}"#)
                == .subscribe(stateHz: 5, calibration: nil))
    }

    @Test func wrongTypesAndEmptySubscribesAreRefused() {
        #expect(Self.scan(#"{"type":"subscribe"}"#) == .refused(.emptySubscribe))
        #expect(Self.scan(#"{"type":"subscribe","id":"x","rate":10}"#) == .refused(.emptySubscribe))
        for v in ["-1", "-0.001", "\"10\"", "null", "true", "false", "-1e999", "1e999", "1e400"] {
            #expect(Self.scan(#"{"type":"subscribe","state_hz":\#(v)}"#) == .refused(.badStateHz), "\(v)")
        }
        for v in ["\"false\"", "0", "1", "null", "\"true\""] {
            #expect(Self.scan(#"{"type":"subscribe","calibration":\#(v)}"#) == .refused(.badCalibration), "\(v)")
        }
        #expect(Self.scan(#"{"type":"subscribe","state_hz":1,"state_hz":2}"#) == .refused(.duplicateKey))
        #expect(Self.scan(#"{"type":"subscribe","calibration":true,"calibration":true}"#) == .refused(.duplicateKey))
        #expect(Self.scan(#"{"type":"Subscribe","state_hz":1}"#) == .refused(.unknownType))
    }

    @Test func requestLineReadsASubscribe() {
        let r = RequestLine.read(Array(#"{"type":"subscribe","state_hz":10,"calibration":false}"#.utf8))
        #expect(r.isSubscribe && r.stateHz == 10 && r.calibration == false)
        #expect(r.askId == nil && r.refusal == nil && !r.isBlank)
        let bad = RequestLine.read(Array(#"{"type":"subscribe"}"#.utf8))
        #expect(!bad.isSubscribe && bad.refusal == RequestRefusal.emptySubscribe.message.description)
    }
}

/// `subscribe` on a real socket: a client's own state rate and calibration lines, the acknowledgement, a
/// subscription replaced wholesale, and refusals that change nothing. Loop times are chosen, never slept.
@Suite(.serialized) struct StreamSubscribeTests {
    typealias Client = StreamServerTests.Client
    static let hello = "{\"type\":\"hello\"}"

    /// A bare server (60 Hz state on 60 Hz ticks) and two clients that have read their hello at loop time 0.
    func open(_ name: String) throws -> (StreamServer, Client, Client) {
        let path = StreamServerTests.tempPath("sub-" + name)
        let server = try StreamServer(path: path, hello: StreamServerTests.line("{\"type\":\"hello\"}\n"))
        let a = try Client(path: path)
        let b = try Client(path: path)
        server.poll(t: 0)
        #expect(a.readLines() == [Self.hello])
        #expect(b.readLines() == [Self.hello])
        return (server, a, b)
    }


    /// A state line carrying its loop time, as the stream would send it.
    func state(_ t: Double) -> LineBuffer {
        let line = LineBuffer(capacity: 64)
        line.literal("{\"type\":\"state\",\"t\":")
        line.fixed(t, 3)
        line.literal("}\n")
        return line
    }

    func types(_ lines: [String]) throws -> [String] {
        try lines.map { l -> String in
            guard case let .string(s)? = try JSONParser.parse(l)["type"] else { return "?" }
            return s
        }
    }

    func times(_ lines: [String]) throws -> [Double] {
        try lines.compactMap { l -> Double? in
            let v = try JSONParser.parse(l)
            guard v["type"] == .string("state"), case let .number(t)? = v["t"] else { return nil }
            return t
        }
    }

    @Test func stateHzZeroGetsNoStateLineButGesturesAndAnswers() throws {
        let (server, quiet, other) = try open("zero")
        defer { server.stop(); quiet.close(); other.close() }
        say(quiet, "{\"type\":\"subscribe\",\"state_hz\":0}\n{\"type\":\"ask\",\"id\":\"q\"}\n")
        server.poll(t: 0.5)
        #expect(quiet.readLines() == [#"{"type":"subscribed","state_hz":0,"calibration":true}"#])
        var seen: [String] = []
        for i in 0..<60 {
            let t = 1 + Double(i) / 60
            server.poll(t: t)
            server.broadcast(state(t), kind: .state, t: t)
            seen += other.readLines()  // each tick: the small receive buffer holds only a few lines
        }
        server.broadcast(StreamServerTests.line("{\"type\":\"gesture\",\"gesture\":\"nod\"}\n"), kind: .mustArrive, t: 2)
        server.answer(gesture: "nod", t: 2)
        server.broadcast(StreamServerTests.line("{\"type\":\"fault\"}\n"), kind: .mustArrive, t: 2.1)
        #expect(quiet.readLines() == [#"{"type":"gesture","gesture":"nod"}"#, #"{"type":"answer","id":"q","gesture":"nod","t":2.000}"#,
                                      #"{"type":"fault"}"#])
        seen += other.readLines()
        #expect(try types(seen).filter { $0 == "state" }.count == 60)
        #expect(try types(seen).suffix(2) == ["gesture", "fault"])
        #expect(server.totals.droppedStateLines == 0)
    }

    /// 10 Hz on a 60 Hz stream is every 6th state line, 0.1 s apart; 30 Hz every 2nd (the quarter-period slack
    /// keeps rounding from skipping one); a client that did not subscribe gets all 180 in 3 s.
    @Test func aSlowerRateGetsEveryNthStateLine() throws {
        let (server, slow, all) = try open("ten")
        defer { server.stop(); slow.close(); all.close() }
        let half = try Client(path: server.path)
        defer { half.close() }
        say(slow, "{\"type\":\"subscribe\",\"state_hz\":10}\n")
        server.poll(t: 0.5)
        say(half, "{\"type\":\"subscribe\",\"state_hz\":30}\n")
        server.poll(t: 0.6)
        #expect(slow.readLines() == [#"{"type":"subscribed","state_hz":10,"calibration":true}"#])
        #expect(half.readLines() == [Self.hello, #"{"type":"subscribed","state_hz":30,"calibration":true}"#])
        var got: (slow: [String], half: [String], all: [String]) = ([], [], [])
        for i in 0..<180 {
            let t = 1 + Double(i) / 60
            server.poll(t: t)
            server.broadcast(state(t), kind: .state, t: t)
            got.slow += slow.readLines()
            got.half += half.readLines()
            got.all += all.readLines()
        }
        let slowTimes = try times(got.slow)
        #expect(abs(slowTimes.count - 30) <= 1, "\(slowTimes.count) lines at 10 Hz")
        #expect(slowTimes.count == got.slow.count)
        #expect(zip(slowTimes, slowTimes.dropFirst()).allSatisfy { abs($1 - $0 - 0.1) < 0.002 }, "\(slowTimes)")
        #expect(try times(got.half).count == 90)
        #expect(try times(got.all).count == 180)
        #expect(server.totals.droppedStateLines == 0)
    }

    @Test func calibrationFalseGetsNoCalibrationLine() throws {
        let (server, off, on) = try open("calibration")
        defer { server.stop(); off.close(); on.close() }
        say(off, "{\"type\":\"subscribe\",\"calibration\":false}\n")
        server.poll(t: 0.5)
        #expect(off.readLines() == [#"{"type":"subscribed","state_hz":60,"calibration":false}"#])
        server.broadcast(StreamServerTests.line("{\"type\":\"calibration\",\"phase\":\"background\"}\n"), kind: .calibration, t: 1)
        server.broadcast(state(1), kind: .state, t: 1)
        server.broadcast(StreamServerTests.line("{\"type\":\"calibration\",\"phase\":\"saved\"}\n"), kind: .calibrationResult, t: 1.1)
        server.broadcast(StreamServerTests.line("{\"type\":\"gesture\"}\n"), kind: .mustArrive, t: 1.2)
        #expect(try types(off.readLines()) == ["state", "gesture"])
        #expect(try types(on.readLines()) == ["calibration", "state", "calibration", "gesture"])
    }

    @Test func aSecondSubscribeReplacesTheFirstWholesale() throws {
        let (server, client, other) = try open("replace")
        defer { server.stop(); client.close(); other.close() }
        say(client, "{\"type\":\"subscribe\",\"state_hz\":0,\"calibration\":false}\n")
        server.poll(t: 0.5)
        say(client, "{\"type\":\"subscribe\",\"state_hz\":30}\n")  // calibration back to its default, on
        server.poll(t: 0.9)
        #expect(client.readLines() == [#"{"type":"subscribed","state_hz":0,"calibration":false}"#,
                                       #"{"type":"subscribed","state_hz":30,"calibration":true}"#])
        var lines: [String] = []
        for i in 0..<60 {
            let t = 1 + Double(i) / 60
            server.poll(t: t)
            server.broadcast(state(t), kind: .state, t: t)
            lines += client.readLines()
        }
        server.broadcast(StreamServerTests.line("{\"type\":\"calibration\"}\n"), kind: .calibration, t: 2)
        lines += client.readLines()
        #expect(try times(lines).count == 30)
        #expect(try types(lines).last == "calibration")

        say(client, "{\"type\":\"subscribe\",\"calibration\":false}\n")  // state back to the stream's rate
        server.poll(t: 3)
        var after: [String] = []
        for i in 0..<60 {
            let t = 3 + Double(i + 1) / 60
            server.poll(t: t)
            server.broadcast(state(t), kind: .state, t: t)
            after += client.readLines()
        }
        server.broadcast(StreamServerTests.line("{\"type\":\"calibration\"}\n"), kind: .calibration, t: 4.5)
        after += client.readLines()
        #expect(after.first == #"{"type":"subscribed","state_hz":60,"calibration":false}"#)
        #expect(try times(after).count == 60 && after.count == 61)
    }

    /// Each bad subscribe gets one error line and changes nothing: the earlier subscription (no state, no
    /// calibration) stands, and no acknowledgement is sent.
    @Test func badSubscribesAreRefusedAndChangeNothing() throws {
        let (server, client, other) = try open("bad")
        defer { server.stop(); client.close(); other.close() }
        say(client, "{\"type\":\"subscribe\",\"state_hz\":0,\"calibration\":false}\n")
        server.poll(t: 0.5)
        #expect(client.readLines() == [#"{"type":"subscribed","state_hz":0,"calibration":false}"#])
        let bad: [(String, RequestRefusal)] = [
            ("{\"type\":\"subscribe\",\"state_hz\":61}\n", .stateHzTooHigh),
            ("{\"type\":\"subscribe\",\"state_hz\":60.001,\"calibration\":true}\n", .stateHzTooHigh),
            ("{\"type\":\"subscribe\",\"state_hz\":1e999}\n", .badStateHz),  // ∞ is no rate at all
            ("{\"type\":\"subscribe\",\"state_hz\":-1}\n", .badStateHz),
            ("{\"type\":\"subscribe\",\"state_hz\":\"10\"}\n", .badStateHz),
            ("{\"type\":\"subscribe\",\"state_hz\":10,\"calibration\":\"yes\"}\n", .badCalibration),
            ("{\"type\":\"subscribe\",\"calibration\":1}\n", .badCalibration),
            ("{\"type\":\"subscribe\"}\n", .emptySubscribe),
            ("{\"type\":\"subscribe\",\"id\":\"x\"}\n", .emptySubscribe),
        ]
        var t = 1.0
        for (i, (text, why)) in bad.enumerated() {
            say(client, text)
            t += 1  // a second apart: the bucket is never what refuses them
            server.poll(t: t)
            server.broadcast(state(t), kind: .state, t: t)
            server.broadcast(StreamServerTests.line("{\"type\":\"calibration\"}\n"), kind: .calibration, t: t)
            #expect(client.readLines() == [errorLine(why)], "\(text)")
            #expect(server.totals.errors == i + 1)
        }
        #expect(server.totals.requests == bad.count + 1)
    }

    @Test func theAcknowledgementSaysWhatTheClientWillGet() throws {
        let (server, client, other) = try open("ack")
        defer { server.stop(); client.close(); other.close() }
        let cases: [(String, String)] = [
            (#"{"type":"subscribe","state_hz":10,"calibration":false}"#, #"{"type":"subscribed","state_hz":10,"calibration":false}"#),
            (#"{"type":"subscribe","calibration":true}"#, #"{"type":"subscribed","state_hz":60,"calibration":true}"#),
            (#"{"type":"subscribe","state_hz":2.5}"#, #"{"type":"subscribed","state_hz":2.500,"calibration":true}"#),
            (#"{"type":"subscribe","state_hz":60}"#, #"{"type":"subscribed","state_hz":60,"calibration":true}"#),
        ]
        var t = 0.0
        for (request, ack) in cases {
            say(client, request + "\n")
            t += 1
            server.poll(t: t)
            let lines = client.readLines()
            #expect(lines == [ack], "\(request)")
            let v = try JSONParser.parse(lines.first ?? "")
            #expect(v["type"] == .string("subscribed"))
        }
    }

    /// Subscribes count against the same 5-a-second bucket as asks.
    @Test func subscribesCountAgainstTheTokenBucket() throws {
        let (server, client, other) = try open("bucket")
        defer { server.stop(); client.close(); other.close() }
        say(client, String(repeating: "{\"type\":\"subscribe\",\"state_hz\":1}\n", count: 6))
        server.poll(t: 1)
        let lines = client.readLines()
        #expect(lines.filter { $0 == #"{"type":"subscribed","state_hz":1,"calibration":true}"# }.count == 5)
        #expect(lines.last == errorLine(.tooMany) && lines.count == 6)
    }

    // MARK: The event stream

    func openStream(_ name: String, stateHz: Double) throws -> (EventStream, Client, Client) {
        var settings = EventStream.Settings()
        settings.socketPath = StreamServerTests.tempPath("sub-stream-" + name)
        settings.stateHz = stateHz
        let stream = try EventStream(settings: settings, hello: StreamHello(imu: "test", magnetometer: "AK8963", rates: LoopRates(),  // calibration lines need one
                                                                           stateHz: stateHz))
        let a = try Client(path: settings.socketPath)
        let b = try Client(path: settings.socketPath)
        stream.server.poll(t: 0)
        return (stream, a, b)
    }

    @Test func theHelloListsAskSubscribeAndRecenter() throws {
        let (stream, a, b) = try openStream("hello", stateHz: 60)
        defer { stream.stop(); a.close(); b.close() }
        let hello = try JSONParser.parse(a.readLines().first ?? "")
        #expect(hello["requests"] == .array([.string("ask"), .string("subscribe"), .string("recenter")]))
        #expect(hello["version"] == .number(1))
        #expect(hello["rates"]?["state_hz"] == .number(60))
    }

    /// The stream formats each state line once; the server passes it on at each client's own rate, and the
    /// background calibration's lines only to clients that want them.
    @Test func theStreamSendsEachClientItsOwnRate() throws {
        let (stream, slow, all) = try openStream("display", stateHz: 60)
        defer { stream.stop(); slow.close(); all.close() }
        _ = slow.readLines()
        _ = all.readLines()
        say(slow, "{\"type\":\"subscribe\",\"state_hz\":10,\"calibration\":false}\n")
        let pipeline = Pipeline()
        stream.display(t: 0.5, leds: 0, pipeline: pipeline)
        var got: (slow: [String], all: [String]) = ([], [])
        for i in 0..<180 {
            stream.display(t: 1 + Double(i) / 60, leds: 0, pipeline: pipeline)
            got.slow += slow.readLines()
            got.all += all.readLines()
        }
        let slowTypes = try types(got.slow)
        let allTypes = try types(got.all)
        #expect(got.slow.first == #"{"type":"subscribed","state_hz":10,"calibration":false}"#)
        // The subscribe is served at t = 0.5 before that tick's state line: from then on 10 Hz.
        let slowStates = slowTypes.filter { $0 == "state" }.count
        #expect(abs(slowStates - 31) <= 1, "\(slowStates)")
        #expect(!slowTypes.contains("calibration"))
        #expect(allTypes.filter { $0 == "state" }.count == 181)
        #expect(allTypes.filter { $0 == "calibration" }.count >= 3)
    }

    /// On a 30 Hz stream the most a client may ask is 30; at 30 it gets every line the stream sends.
    @Test func theStreamsOwnRateIsTheMost() throws {
        let (stream, client, other) = try openStream("thirty", stateHz: 30)
        defer { stream.stop(); client.close(); other.close() }
        _ = client.readLines()
        say(client, "{\"type\":\"subscribe\",\"state_hz\":31}\n")
        stream.server.poll(t: 0.5)
        #expect(client.readLines() == [errorLine(.stateHzTooHigh)])
        say(client, "{\"type\":\"subscribe\",\"state_hz\":30,\"calibration\":false}\n")
        let pipeline = Pipeline()
        var lines: [String] = []
        for i in 0..<60 {
            stream.display(t: 1 + Double(i) / 60, leds: 0, pipeline: pipeline)
            lines += client.readLines()
        }
        #expect(lines.first == #"{"type":"subscribed","state_hz":30,"calibration":false}"#)
        #expect(try types(lines).filter { $0 == "state" }.count == 30)
    }
}
