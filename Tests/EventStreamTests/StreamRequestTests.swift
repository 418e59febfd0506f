#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Testing
import Tracking
@testable import Formats
@testable import EventStream

/// The request scanner over byte strings: what it takes (key order, whitespace, numbers as JSON writes them)
/// and what it refuses (escapes in an id, nested values, strings for numbers, broken JSON).
struct RequestScannerTests {
    static func scan(_ s: String) -> ClientRequest {
        Array(s.utf8).withUnsafeBufferPointer { RequestScanner.scan($0) }
    }

    struct Ask: Equatable {
        var id: String
        var timeout: Double
    }

    /// The ask's id and timeout, or nil when the line is not a taken ask.
    static func ask(_ s: String) -> Ask? {
        let bytes = Array(s.utf8)
        guard case let .ask(start, count, timeout) = bytes.withUnsafeBufferPointer({ RequestScanner.scan($0) }) else { return nil }
        return Ask(id: String(decoding: bytes[start..<(start + count)], as: UTF8.self), timeout: timeout)
    }

    static func refusal(_ s: String) -> RequestRefusal? {
        if case let .refused(why) = scan(s) { return why }
        return nil
    }

    @Test func keyOrderAndWhitespaceDoNotMatter() {
        #expect(Self.ask(#"{"type":"ask","id":"q1","timeout_s":5}"#) == Ask(id: "q1", timeout: 5))
        #expect(Self.ask(#"{"timeout_s":2,"id":"q1","type":"ask"}"#) == Ask(id: "q1", timeout: 2))
        #expect(Self.ask(" \t{ \"type\" :\t\"ask\" ,\r \"id\":  \"a b\"  } \r") == Ask(id: "a b", timeout: 5))
        #expect(Self.ask(#"{"id":"x","type":"ask"}"#) == Ask(id: "x", timeout: RequestScanner.defaultTimeout))
        // Keys it does not know are skipped, whatever scalar they hold.
        #expect(Self.ask(#"{"type":"ask","note":"hi \"there\" \u00e9","n":-1.5e3,"b":true,"f":false,"z":null,"id":"k"}"#)
                == Ask(id: "k", timeout: 5))
    }

    @Test func timeoutsAreJSONNumbersInRange() {
        for (text, value) in [("5", 5.0), ("5.0", 5), ("0.5", 0.5), ("1e1", 10), ("6E+1", 60), ("60.0", 60), ("600e-1", 60),
                              ("0.50000", 0.5), ("59.999", 59.999)] {
            #expect(Self.ask(#"{"type":"ask","id":"q","timeout_s":\#(text)}"#)?.timeout == value, "\(text)")
        }
        for text in ["-1", "\"5\"", "0", "0.49", "60.001", "1e999", "1e-999", "-0", "null", "true"] {
            #expect(Self.refusal(#"{"type":"ask","id":"q","timeout_s":\#(text)}"#) == .badTimeout, "\(text)")
        }
        for text in ["05", "5.", ".5", "+5", "-", "1e", "1e+", "5s", "0x10", "5 5"] {
            #expect(Self.refusal(#"{"type":"ask","id":"q","timeout_s":\#(text)}"#) == .malformed, "\(text)")
        }
    }

    @Test func idsArePrintableASCIIWithoutEscapes() {
        let sixtyFour = String(repeating: "i", count: 64)
        #expect(Self.ask(#"{"type":"ask","id":"\#(sixtyFour)"}"#)?.id == sixtyFour)
        #expect(Self.ask(#"{"type":"ask","id":" !#$%&'()*+,-./:;<=>?@[]^_`{|}~"}"#)?.id == #" !#$%&'()*+,-./:;<=>?@[]^_`{|}~"#)
        for id in [#""a\"b""#, #""a\\b""#, #""\u0041""#, #""a\/b""#, #""""#, "\"\(sixtyFour)i\"", "\"é\"", "\"\u{7F}\"", "5", "null", "true"] {
            #expect(Self.refusal(#"{"type":"ask","id":\#(id)}"#) == .badId, "\(id)")
        }
        #expect(Self.refusal("{\"type\":\"ask\",\"id\":\"a\tb\"}") == .malformed)  // a raw control character is not JSON
        #expect(Self.refusal(#"{"type":"ask","id":"a\xb"}"#) == .malformed)        // nor is an unknown escape
    }

    @Test func nestedValuesAreRefused() {
        #expect(Self.refusal(#"{"type":"ask","id":"q1","x":{}}"#) == .nested)
        #expect(Self.refusal(#"{"type":"ask","id":"q1","x":[1]}"#) == .nested)
        #expect(Self.refusal(#"{"type":{"a":1},"id":"q1"}"#) == .nested)
        #expect(Self.refusal(#"{"id":["q1"],"type":"ask"}"#) == .nested)
    }

    @Test func fieldsAreJudgedOnlyInAWholeObject() {
        #expect(Self.refusal(#"{"type":"tell","id":"q1"}"#) == .unknownType)
        #expect(Self.refusal(#"{"type":"ASK","id":"q1"}"#) == .unknownType)
        #expect(Self.refusal(#"{"type":5,"id":"q1"}"#) == .unknownType)
        #expect(Self.refusal(#"{"id":"q1"}"#) == .missingType)
        #expect(Self.refusal("{}") == .missingType)
        #expect(Self.refusal(#"{"typ\u0065":"ask","id":"q1"}"#) == .missingType)  // keys are compared as written
        #expect(Self.refusal(#"{"type":"ask"}"#) == .missingId)
        #expect(Self.refusal(#"{"type":"ask","type":"ask","id":"q1"}"#) == .duplicateKey)
        #expect(Self.refusal(#"{"type":"ask","id":"q1","id":"q2"}"#) == .duplicateKey)
        for text in [#"{"type":"ask","id":"q1""#, #"{"type":"ask","id":"q1"}}"#, #"{"type":"ask",}"#, #"{"type" "ask","id":"q1"}"#,
                     #"[{"type":"ask","id":"q1"}]"#, "hello", #"{"type":"ask","id":"q1"} x"#, #"{"type":"ask"#, "{'type':'ask','id':'q1'}",
                     #"{"type":"ask","id":"q1",,}"#, #"{"type":"ask","id":"q1" "x":1}"#, #"{"type":tru,"id":"q1"}"#, "{,}"] {
            #expect(Self.refusal(text) == .malformed, "\(text)")
        }
        #expect(Self.scan("") == .blank)
        #expect(Self.scan(" \t\r") == .blank)
    }

    @Test func everyRefusalSaysWhatToDoInValidJSON() throws {
        for why in RequestRefusal.allCases {
            let line = LineBuffer(capacity: 256)
            line.string(why.message)
            #expect(!line.overflowed)
            #expect(try JSONParser.parse(line.text) == .string(why.message.description))
            #expect(why.message.description.contains(":"), "\(why)")
        }
    }
}

/// The request channel on a real socket: asks and their one answer each, time-outs on loop time, refused
/// requests and the bounds on what a client can make the server do, and half-closed clients.
@Suite(.serialized) struct StreamRequestTests {
    typealias Client = StreamServerTests.Client
    static let hello = "{\"type\":\"hello\"}"

    /// A server on a temporary socket and one client that has read its hello (at loop time 0).
    func open(_ name: String) throws -> (StreamServer, Client) {
        let path = StreamServerTests.tempPath("req-" + name)
        let server = try StreamServer(path: path, hello: StreamServerTests.line("{\"type\":\"hello\"}\n"))
        let client = try Client(path: path)
        server.poll(t: 0)
        #expect(client.readLines() == [Self.hello])
        return (server, client)
    }


    @Test func anAskIsAnsweredOnceByTheGestureAndNotAgain() throws {
        let (server, client) = try open("once")
        defer { server.stop(); client.close() }
        #expect(!server.questionPending)
        say(client, "{\"type\":\"ask\",\"id\":\"q1\"}\n")
        server.poll(t: 1)
        #expect(server.questionPending)
        #expect(client.readLines() == [])  // taking an ask sends nothing
        server.answer(gesture: "nod", t: 1.5)
        #expect(client.readLines() == [#"{"type":"answer","id":"q1","gesture":"nod","t":1.500}"#])
        #expect(!server.questionPending)
        server.answer(gesture: "shake", t: 2)
        server.poll(t: 10)  // past the 5 s it would have run out at
        #expect(client.readLines() == [])
        #expect(server.totals.answers == 1 && server.totals.requests == 1 && server.totals.errors == 0)
    }

    @Test func theStreamAnswersWithANodOrShakeAfterItsGestureLine() throws {
        var settings = EventStream.Settings()
        settings.socketPath = StreamServerTests.tempPath("req-stream")
        let stream = try EventStream(settings: settings, hello: StreamHello(imu: "test", magnetometer: nil, rates: LoopRates(), stateHz: 0))
        defer { stream.stop() }
        let client = try Client(path: settings.socketPath)
        defer { client.close() }
        stream.server.poll(t: 0)
        _ = client.readLines()
        say(client, "{\"type\":\"ask\",\"id\":\"who\",\"timeout_s\":30}\n")
        stream.server.poll(t: 1)
        #expect(stream.questionPending)
        stream.gesture(.up, t: 1.25, start: 1.1, count: 1)  // not an answer: still pending
        #expect(client.readLines() == [#"{"type":"gesture","gesture":"up","t":1.250,"start":1.100,"count":1,"bout":null,"peak_dps":null}"#])
        #expect(stream.questionPending)
        stream.gesture(.nod, t: 2.5, start: 2, count: 4)
        #expect(client.readLines() == [#"{"type":"gesture","gesture":"nod","t":2.500,"start":2.000,"count":4,"bout":null,"peak_dps":null}"#,
                                       #"{"type":"answer","id":"who","gesture":"nod","t":2.500}"#])
        #expect(!stream.questionPending)
        stream.gesture(.shake, t: 3, start: 2.6, count: 5)
        #expect(client.readLines() == [#"{"type":"gesture","gesture":"shake","t":3.000,"start":2.600,"count":5,"bout":null,"peak_dps":null}"#])
        say(client, "{\"type\":\"ask\",\"id\":\"again\"}\n")
        stream.server.poll(t: 4)
        stream.gesture(.shake, t: 4.5)
        #expect(client.readLines().last == #"{"type":"answer","id":"again","gesture":"shake","t":4.500}"#)
        #expect(stream.server.totals.answers == 2)
    }

    @Test func anAskRunsOutAtItsLoopTimeWithNull() throws {
        let (server, client) = try open("timeout")
        defer { server.stop(); client.close() }
        say(client, "{\"type\":\"ask\",\"id\":\"t2\",\"timeout_s\":2}\n")
        server.poll(t: 1)
        for t in [2.0, 2.5, 2.999] {
            server.poll(t: t)
            #expect(client.readLines() == [], "at \(t)")
            #expect(server.questionPending)
        }
        server.poll(t: 3.0)
        #expect(client.readLines() == [#"{"type":"answer","id":"t2","gesture":null,"t":3.000}"#])
        #expect(!server.questionPending)
        server.poll(t: 20)
        server.answer(gesture: "nod", t: 20)
        #expect(client.readLines() == [])

        // Without timeout_s: 5 s.
        say(client, "{\"type\":\"ask\",\"id\":\"d\"}\n")
        server.poll(t: 30)
        server.poll(t: 34.99)
        #expect(client.readLines() == [])
        server.poll(t: 35.25)
        #expect(client.readLines() == [#"{"type":"answer","id":"d","gesture":null,"t":35.250}"#])
        #expect(server.totals.answers == 2)
    }

    @Test func aNewAskReplacesThePendingOne() throws {
        let (server, client) = try open("replace")
        defer { server.stop(); client.close() }
        say(client, "{\"type\":\"ask\",\"id\":\"q1\",\"timeout_s\":10}\n")
        server.poll(t: 1)
        say(client, "{\"type\":\"ask\",\"id\":\"q2\",\"timeout_s\":1}\n")
        server.poll(t: 2)
        #expect(client.readLines() == [#"{"type":"answer","id":"q1","gesture":null,"replaced":true,"t":2.000}"#])
        #expect(server.questionPending)
        server.poll(t: 2.9)
        #expect(client.readLines() == [])
        server.poll(t: 3)  // q2's own deadline, not q1's
        #expect(client.readLines() == [#"{"type":"answer","id":"q2","gesture":null,"t":3.000}"#])
        #expect(!server.questionPending)

        // Two asks in one read: the first is replaced at once, the second answered by the gesture.
        say(client, "{\"type\":\"ask\",\"id\":\"a\"}\n{\"type\":\"ask\",\"id\":\"b\"}\n")
        server.poll(t: 4)
        server.answer(gesture: "shake", t: 4.5)
        #expect(client.readLines() == [#"{"type":"answer","id":"a","gesture":null,"replaced":true,"t":4.000}"#,
                                       #"{"type":"answer","id":"b","gesture":"shake","t":4.500}"#])
        #expect(!server.questionPending)
        #expect(server.totals.answers == 4)
    }

    @Test func onlyTheClientThatAskedIsAnswered() throws {
        let (server, asker) = try open("two")
        defer { server.stop(); asker.close() }
        let other = try Client(path: server.path)
        defer { other.close() }
        server.poll(t: 0.5)
        #expect(other.readLines() == [Self.hello])
        say(asker, "{\"type\":\"ask\",\"id\":\"mine\"}\n")
        server.poll(t: 1)
        server.answer(gesture: "nod", t: 1.2)
        server.broadcast(StreamServerTests.line("{\"type\":\"gesture\"}\n"), kind: .mustArrive, t: 1.3)
        #expect(asker.readLines() == [#"{"type":"answer","id":"mine","gesture":"nod","t":1.200}"#, #"{"type":"gesture"}"#])
        #expect(other.readLines() == [#"{"type":"gesture"}"#])
    }

    @Test func aClientThatLeavesLosesItsAsk() throws {
        let (server, client) = try open("leaves")
        defer { server.stop() }
        say(client, "{\"type\":\"ask\",\"id\":\"gone\"}\n")
        server.poll(t: 1)
        #expect(server.questionPending)
        client.close()
        server.poll(t: 1.1)
        #expect(server.clientCount == 0)
        #expect(!server.questionPending)
        server.answer(gesture: "nod", t: 1.2)
        #expect(server.totals.answers == 0)
    }

    /// Each bad request gets one error line saying what was wrong, and changes nothing else: the pending ask
    /// stays pending with its id.
    @Test func badRequestsAreRefusedWithAnErrorAndNothingElse() throws {
        let (server, client) = try open("bad")
        defer { server.stop(); client.close() }
        say(client, "{\"type\":\"ask\",\"id\":\"keep\",\"timeout_s\":60}\n")
        server.poll(t: 1)
        let bad: [(String, RequestRefusal)] = [
            ("{\"type\":\"ask\",\"id\":\"x\"\n", .malformed),
            ("not json\n", .malformed),
            ("{\"type\":\"tell\",\"id\":\"x\"}\n", .unknownType),
            ("{\"type\":\"subscribe\",\"id\":\"x\"}\n", .emptySubscribe),
            ("{\"type\":\"ask\",\"id\":\"a\\\"b\"}\n", .badId),
            ("{\"type\":\"ask\",\"id\":\"\"}\n", .badId),
            ("{\"type\":\"ask\",\"id\":\"x\",\"timeout_s\":0.1}\n", .badTimeout),
            ("{\"type\":\"ask\",\"id\":\"x\",\"timeout_s\":61}\n", .badTimeout),
            ("{\"type\":\"ask\",\"id\":\"x\",\"timeout_s\":\"5\"}\n", .badTimeout),
            ("{\"type\":\"ask\",\"id\":\"x\",\"more\":{\"a\":1}}\n", .nested),
            ("{\"id\":\"x\"}\n", .missingType),
        ]
        var t = 1.0
        for (i, (text, why)) in bad.enumerated() {
            say(client, text)
            t += 1  // a second apart: the bucket is never what refuses them
            server.poll(t: t)
            #expect(client.readLines() == [errorLine(why)], "\(text)")
            #expect(server.questionPending)
            #expect(server.totals.errors == i + 1)
        }
        #expect(server.totals.requests == bad.count + 1)
        #expect(server.totals.answers == 0 && server.totals.errorsSuppressed == 0)
        server.answer(gesture: "nod", t: t)
        #expect(client.readLines() == ["{\"type\":\"answer\",\"id\":\"keep\",\"gesture\":\"nod\",\"t\":\(Int(t)).000}"])
    }

    /// 1024 bytes and a newline is a request; 1025 is refused once, skipped to its newline (over several reads),
    /// and the next line is read as usual.
    @Test func aLineLongerThan1024BytesIsDroppedToItsNewline() throws {
        let (server, client) = try open("long")
        defer { server.stop(); client.close() }
        let ask = "{\"type\":\"ask\",\"id\":\"fits\"}"
        say(client, ask + String(repeating: " ", count: 1024 - ask.utf8.count) + "\n")
        for k in 1...3 { server.poll(t: Double(k) * 0.1) }
        #expect(server.questionPending)
        #expect(client.readLines() == [])

        say(client, "{\"type\":\"ask\",\"id\":\"long\",\"pad\":\"" + String(repeating: "x", count: 2000) + "\"}\n{\"type\":\"ask\",\"id\":\"next\"}\n")
        var lines: [String] = []
        for k in 4...12 {
            server.poll(t: Double(k) * 0.1)
            lines += client.readLines()
        }
        #expect(lines == [errorLine(.tooLong), #"{"type":"answer","id":"fits","gesture":null,"replaced":true,"t":0.800}"#])
        server.answer(gesture: "nod", t: 2)
        #expect(client.readLines() == [#"{"type":"answer","id":"next","gesture":"nod","t":2.000}"#])
        #expect(server.totals.requests == 3 && server.totals.errors == 1)
    }

    /// A client sending 1000 requests as fast as its socket takes them: at most one error line per display
    /// tick, at most the bucket's rate of asks taken, every taken ask answered once, and `questionPending` true
    /// for the last one only until it is answered.
    @Test func aFloodIsBoundedToOneErrorLinePerTick() throws {
        let (server, client) = try open("flood")
        defer { server.stop(); client.close() }
        var flood: [UInt8] = []
        for i in 0..<1000 { flood += Array("{\"type\":\"ask\",\"id\":\"f\(i)\",\"timeout_s\":60}\n".utf8) }
        var offset = 0
        var t = 1.0
        var ticks = 0
        var answers: [String] = []
        while server.totals.requests < 1000 && ticks < 2000 {
            if offset < flood.count {
                let n = flood[offset...].withUnsafeBytes { send(client.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)) }
                if n > 0 { offset += n }
            }
            server.poll(t: t)
            ticks += 1
            let lines = client.readLines()
            #expect(lines.filter { $0.hasPrefix("{\"type\":\"error\"") }.count <= 1, "tick \(ticks): \(lines)")
            answers += lines.filter { $0.hasPrefix("{\"type\":\"answer\"") }
            t += 1.0 / 60
        }
        let elapsed = t - 1
        #expect(server.totals.requests == 1000)
        #expect(server.clientCount == 1)
        let refused = server.totals.errors + server.totals.errorsSuppressed
        let taken = 1000 - refused
        #expect(server.totals.errors <= ticks)
        #expect(server.totals.errors > 0 && server.totals.errorsSuppressed > 0)
        #expect(taken >= 5 && Double(taken) <= 5 + 5 * elapsed + 1, "\(taken) asks taken in \(elapsed) s")
        // Every taken ask but the last was replaced by the next, and answered so.
        #expect(answers.count == taken - 1)
        #expect(answers.allSatisfy { $0.contains("\"gesture\":null,\"replaced\":true") })
        #expect(server.questionPending)
        server.answer(gesture: "nod", t: t)
        let last = client.readLines()
        #expect(last.count == 1 && last[0].contains("\"gesture\":\"nod\""))
        #expect(!server.questionPending)
        // The ids answered are taken asks, each once.
        let ids = (answers + last).map { $0.split(separator: "\"")[7] }
        #expect(Set(ids).count == taken)
    }

    /// Ten bad lines in one read: one error line, nine only counted.
    @Test func manyBadLinesInOneTickGetOneErrorLine() throws {
        let (server, client) = try open("burst")
        defer { server.stop(); client.close() }
        say(client, String(repeating: "{oops}\n", count: 10))
        server.poll(t: 1)
        #expect(client.readLines() == [errorLine(.malformed)])
        #expect(server.totals.requests == 10 && server.totals.errors == 1 && server.totals.errorsSuppressed == 9)
        // The next tick may have its own error line; the bucket is empty for a while.
        say(client, "{\"type\":\"ask\",\"id\":\"q\"}\n")
        server.poll(t: 1.01)
        #expect(client.readLines() == [errorLine(.tooMany)])
        #expect(!server.questionPending)
        say(client, "{\"type\":\"ask\",\"id\":\"q\"}\n")
        server.poll(t: 1.3)  // 1.5 tokens back
        #expect(client.readLines() == [])
        #expect(server.questionPending)
    }

    /// A client that shuts down its sending side (a script's "that was all") keeps its connection, its ask
    /// and every line; closing completely then frees the slot at the next tick, even with nothing queued.
    @Test func aHalfClosedClientKeepsReceiving() throws {
        let (server, client) = try open("half")
        defer { server.stop() }  // the client is closed below
        say(client, "{\"type\":\"ask\",\"id\":\"last\",\"timeout_s\":30}\n")
        #expect(shutdown(client.fd, Int32(SHUT_WR)) == 0)
        for k in 1...5 { server.poll(t: Double(k)) }
        #expect(server.clientCount == 1)
        #expect(server.questionPending)
        server.broadcast(StreamServerTests.line("{\"type\":\"gesture\",\"gesture\":\"nod\"}\n"), kind: .mustArrive, t: 5.5)
        server.answer(gesture: "nod", t: 5.5)
        server.poll(t: 6)
        server.broadcast(StreamServerTests.line("{\"type\":\"state\"}\n"), kind: .state, t: 6.5)
        #expect(client.readLines() == [#"{"type":"gesture","gesture":"nod"}"#, #"{"type":"answer","id":"last","gesture":"nod","t":5.500}"#,
                                       #"{"type":"state"}"#])
        #expect(server.clientCount == 1)
        client.close()
        server.poll(t: 7)
        #expect(server.clientCount == 0)
    }

    @Test func aRequestCutOffByEndOfInputIsRefusedAndItsTimeoutStillRuns() throws {
        let (server, client) = try open("cut")
        defer { server.stop(); client.close() }
        say(client, "{\"type\":\"ask\",\"id\":\"w\",\"timeout_s\":1}\n{\"type\":\"ask\"")
        #expect(shutdown(client.fd, Int32(SHUT_WR)) == 0)
        server.poll(t: 1)  // reads the ask and the start of the next line
        #expect(client.readLines() == [])
        server.poll(t: 1.5)  // end of input: the unfinished line is refused
        #expect(client.readLines() == [errorLine(.unterminated)])
        server.poll(t: 2)
        #expect(client.readLines() == [#"{"type":"answer","id":"w","gesture":null,"t":2.000}"#])
        #expect(server.clientCount == 1)
    }

    @Test func theHelloSaysWhichRequestsTheTrackerTakes() throws {
        let hello = EventStream.helloLine(StreamHello(imu: "MPU-9250", magnetometer: "AK8963", rates: LoopRates(), stateHz: 60))
        #expect(!hello.overflowed)
        let v = try JSONParser.parse(hello.text)
        #expect(v["requests"] == .array([.string("ask"), .string("subscribe"), .string("recenter")]))
        #expect(v["version"] == .number(1))
        #expect(EventStream.protocolVersion == 1)
    }

    /// The hello's exact text, written out by hand: key order, one decimal on every rate, `null` for a board
    /// without a magnetometer and for no mount, and the control character in a chip name escaped.
    @Test func theHelloIsWrittenToTheByte() {
        var rates = LoopRates()
        rates.imuHz = 1000
        let hello = EventStream.helloLine(StreamHello(imu: "MPU\t6050", magnetometer: nil, rates: rates, stateHz: 12.25))
        #expect(hello.text == #"{"type":"hello","version":1,"imu":"MPU\t6050","magnetometer":null,"#
            + #""rates":{"imu_hz":1000.0,"mag_hz":null,"display_hz":60.0,"state_hz":12.3},"#
            + #""north_led_deg":22.5,"north_led_hysteresis_deg":3.0,"mount":null,"mount_source":"none","#
            + #""requests":["ask","subscribe","recenter"]}"# + "\n")
    }
}
