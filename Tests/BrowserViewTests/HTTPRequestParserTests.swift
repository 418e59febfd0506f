import Testing
@testable import BrowserView

/// Request heads as browsers send them, and as an attacker would: every refusal is a clear 4xx (or 505) with
/// a reason, decided after a bounded number of bytes, never by buffering whatever arrives.
@Suite struct HTTPRequestParserTests {
    static let chromeRequest = "GET /view.js?v=1 HTTP/1.1\r\nHost: 127.0.0.1:8740\r\nConnection: keep-alive\r\n"
        + "User-Agent: Mozilla/5.0 (X11; Linux x86_64)\r\nAccept: */*\r\nSec-Fetch-Mode: no-cors\r\n"
        + "Accept-Encoding: gzip, deflate, br\r\nAccept-Language: en-GB,en;q=0.9\r\n\r\n"

    func parse(_ text: String, limits: HTTPRequestParser.Limits = .init()) -> HTTPRequestParser.Result {
        var p = HTTPRequestParser(limits: limits)
        return p.feed(Array(text.utf8))
    }

    func status(_ text: String) -> Int? {
        if case let .rejected(r) = parse(text) { return r.status }
        return nil
    }

    @Test func aBrowserRequestParses() throws {
        guard case let .complete(r) = parse(Self.chromeRequest) else { Issue.record("not complete"); return }
        #expect(r.method == "GET" && r.target == "/view.js?v=1" && r.path == "/view.js" && r.version == "HTTP/1.1")
        #expect(r.header("host") == "127.0.0.1:8740" && r.header("ACCEPT") == "*/*" && r.headers.count == 7)
    }

    @Test func byteByByteGivesTheSameRequest() {
        var p = HTTPRequestParser()
        var result = HTTPRequestParser.Result.incomplete
        for b in Array(Self.chromeRequest.utf8) {
            #expect(result == .incomplete)
            result = p.feed([b])
        }
        #expect(result == parse(Self.chromeRequest))
        #expect(p.bytesExamined == Self.chromeRequest.utf8.count)
    }

    @Test func bareLineFeedsAreAccepted() {
        guard case let .complete(r) = parse("GET / HTTP/1.0\nHost: localhost\n\n") else { Issue.record("not complete"); return }
        #expect(r.path == "/" && r.header("Host") == "localhost")
    }

    @Test func anIncompleteHeadWaits() {
        #expect(parse("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n") == .incomplete)
    }

    @Test func hugeHeadersAreRefusedAtTheLimitWithoutStoringTheRest() {
        var p = HTTPRequestParser()
        var result = p.feed(Array("GET / HTTP/1.1\r\n".utf8))
        let header = Array("X-Filler: \(String(repeating: "a", count: 100))\r\n".utf8)
        var sent = 16
        // A megabyte offered in header-sized pieces: refused once the head reaches 8 KiB, the rest not looked at.
        while sent < 1 << 20 {
            let r = p.feed(header)
            if case .rejected = result {} else { result = r }
            sent += header.count
        }
        #expect(result == .rejected(HTTPRejection(431, "the request head is longer than 8192 bytes")))
        #expect(p.bytesExamined == 8192)
    }

    @Test func aLongRequestLineIsURITooLong() {
        var p = HTTPRequestParser()
        let result = p.feed(Array(("GET /" + String(repeating: "a", count: 100_000) + " HTTP/1.1\r\n\r\n").utf8))
        #expect(result == .rejected(HTTPRejection(414, "the request line is longer than 2048 bytes")))
        #expect(p.bytesExamined <= 2050)
        // 2048 bytes exactly is still a request line.
        let fits = "GET /" + String(repeating: "a", count: 2048 - 14) + " HTTP/1.1"
        #expect(fits.utf8.count == 2048)
        guard case .complete = parse(fits + "\r\nHost: localhost\r\n\r\n") else { Issue.record("2048 bytes refused"); return }
    }

    @Test func tooManyHeaders() {
        let head = "GET / HTTP/1.1\r\n" + (0..<41).map { "X-\($0): 1\r\n" }.joined() + "\r\n"
        #expect(status(head) == 431)
        let fine = "GET / HTTP/1.1\r\n" + (0..<40).map { "X-\($0): 1\r\n" }.joined() + "\r\n"
        guard case .complete = parse(fine) else { Issue.record("40 headers refused"); return }
    }

    @Test func malformedRequestLinesAreBadRequests() {
        #expect(status("GET http://example.com/ HTTP/1.1\r\n\r\n") == 400)      // absolute form
        #expect(status("OPTIONS * HTTP/1.1\r\n\r\n") == 400)
        #expect(status("GET /a b HTTP/1.1\r\n\r\n") == 400)                     // a space in the target
        #expect(status("GET  / HTTP/1.1\r\n\r\n") == 400)                       // two spaces
        #expect(status("GET / HTTP/1.1 \r\n\r\n") == 400)
        #expect(status("G(T / HTTP/1.1\r\n\r\n") == 400)                        // not a token
        #expect(status("GET /caf\u{E9} HTTP/1.1\r\n\r\n") == 400)               // not ASCII
        #expect(status("GET /\u{1B}[2J HTTP/1.1\r\n\r\n") == 400)               // a terminal escape
        #expect(status("GET / HTCPCP/1.0\r\n\r\n") == 400)
        #expect(status("GET / HTTP/2.0\r\n\r\n") == 505)
        #expect(status("\r\n\r\n") == 400)
    }

    @Test func aNulByteIsRefusedAtOnce() {
        var p = HTTPRequestParser()
        #expect(p.feed(Array("GET /\0".utf8)) == .rejected(HTTPRejection(400, "a NUL byte in the request head")))
        #expect(p.feed(Array(" HTTP/1.1\r\n\r\n".utf8)) == .incomplete)  // nothing more is read after a refusal
        #expect(p.bytesExamined == 6)
    }

    @Test func malformedHeadersAreBadRequests() {
        #expect(status("GET / HTTP/1.1\r\nHost localhost\r\n\r\n") == 400)            // no colon
        #expect(status("GET / HTTP/1.1\r\nHost : localhost\r\n\r\n") == 400)          // space before the colon
        #expect(status("GET / HTTP/1.1\r\nHost: localhost\r\n folded\r\n\r\n") == 400)
        #expect(status("GET / HTTP/1.1\r\nX: a\u{7}b\r\n\r\n") == 400)                // a control character
        #expect(status("GET / HTTP/1.1\r\n: empty\r\n\r\n") == 400)
    }
}
