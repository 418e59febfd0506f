import Testing
import PlainText

/// The JSON parser on an object of many keys.
@Suite struct JSONParserTests {
    // Once 160 000 keys took 67 s (a list scan per key). The limit is a hang guard, not a benchmark: a
    // linear parse takes about a second here, the quadratic one minutes.
    @Test(.timeLimit(.minutes(1))) func manyKeysParseAndDuplicatesAreStillFound() throws {
        var text = "{"
        for k in 0..<320_000 { text += (k == 0 ? "" : ",") + "\"k\(k)\": \(k)" }
        let value = try JSONParser.parse(text + "}")
        guard case let .object(members) = value else { Issue.record("not an object"); return }
        #expect(members.count == 320_000)
        #expect(members.last?.0 == "k319999")
        #expect(throws: JSONError.self) { try JSONParser.parse(text + ", \"k123456\": 1}") }
    }
}
