import Foundation
import Testing
@testable import BrowserView

/// The framing, read back by a parser written here from the WHATWG event-stream rules (lines end with CRLF,
/// LF or CR; `field: value`; `data` lines joined with LF; a blank line dispatches): what a browser gets.
@Suite struct ServerSentEventsTests {
    struct Event: Equatable {
        var name = "message"
        var data = ""
    }

    static func parse(_ bytes: [UInt8]) -> [Event] {
        let text = String(decoding: bytes, as: UTF8.self)
        var lines: [Substring] = []
        var rest = Substring(text)
        while let end = rest.firstIndex(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            lines.append(rest[..<end])
            rest = rest[rest.index(after: end)...]
        }
        var events: [Event] = []
        var name = "", data: [Substring] = [], sawData = false
        for line in lines {
            if line.isEmpty {
                if sawData { events.append(Event(name: name.isEmpty ? "message" : name, data: data.joined(separator: "\n"))) }
                name = ""; data = []; sawData = false
                continue
            }
            if line.hasPrefix(":") { continue }
            let field: Substring, value: Substring
            if let colon = line.firstIndex(of: ":") {
                field = line[..<colon]
                var v = line[line.index(after: colon)...]
                if v.hasPrefix(" ") { v = v.dropFirst() }
                value = v
            } else {
                field = line; value = ""
            }
            if field == "data" { data.append(value); sawData = true }
            if field == "event" { name = String(value) }
        }
        return events
    }

    @Test func aJSONLineIsOneEvent() {
        let line = #"{"type":"gesture","gesture":"nod","t":9.685,"start":9.374,"count":1}"#
        let bytes = ServerSentEvents.event(line)
        #expect(String(decoding: bytes, as: UTF8.self) == "data: " + line + "\n\n")
        #expect(Self.parse(bytes) == [Event(data: line)])
    }

    @Test func aNamedEvent() {
        #expect(Self.parse(ServerSentEvents.event("{}", name: "view")) == [Event(name: "view", data: "{}")])
    }

    @Test func lineBreaksInsideCannotEndTheEventOrAddAField() {
        // Whatever a socket delivers, it stays inside this event's data.
        for text in ["a\nevent: evil\n\ndata: injected", "a\revent: evil\r\rdata: x", "a\r\nid: 9\r\n\r\nretry: 1"] {
            let events = Self.parse(ServerSentEvents.event(text))
            #expect(events.count == 1 && events[0].name == "message", "\(text.debugDescription)")
            let normalised = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            #expect(events[0].data == normalised, "\(text.debugDescription)")
        }
    }

    @Test func aStreamOfEventsAndKeepAlives() {
        var bytes = ServerSentEvents.retry(milliseconds: 1000)
        bytes += ServerSentEvents.event("one")
        bytes += ServerSentEvents.keepAlive
        bytes += ServerSentEvents.event("two", name: "view")
        #expect(Self.parse(bytes) == [Event(data: "one"), Event(name: "view", data: "two")])
    }
}
