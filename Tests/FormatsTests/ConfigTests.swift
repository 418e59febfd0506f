import Foundation  // String.range(of:) and replacingCharacters, in the extension below
import Geometry
import Testing
@testable import Formats

@Suite struct ConfigTests {
    @Test func defaultsWhenEmpty() throws {
        let c = try Config.parse("{}")
        #expect(c.ledLines == [17, 27, 22, 23, 24, 25, 5, 6])
        #expect(c.rates.imuHz == 200 && c.rates.magHz == 100 && c.rates.displayHz == 60)
    }

    @Test func readsFieldsAndComments() throws {
        let c = try Config.parse("""
            {
              // Pi 5
              "i2c": { "device": "/dev/i2c-1" },
              "gpio": { "chip": "pinctrl-rp1", "leds": { "north": 16 } },
              "mount": "-x,z,y",
              "declinationDeg": 3.5
            }
            """)
        #expect(c.gpioChip == "pinctrl-rp1")
        #expect(c.ledLines[2] == 16)
        #expect(c.mount?.description == "-x,z,y")
        #expect(c.declinationDegrees == 3.5)
    }

    @Test func unknownFieldIsRejectedWithItsPath() {
        #expect(throws: ConfigError(path: "config", line: 1, message: "gpio.ledz: unknown field (known here: chip, activeLow, leds)")) {
            try Config.parse(#"{"gpio": {"ledz": {}}}"#)
        }
    }

    @Test func corruptOrTruncatedFilesAreRejected() {
        #expect(throws: ConfigError.self) { try Config.parse(#"{"rates": {"imuHz": 200"#) }
        #expect(throws: ConfigError.self) { try Config.parse(#"{"rates": {"imuHz": "fast"}}"#) }
        #expect(throws: ConfigError.self) { try Config.parse(#"{"rates": {"imuHz": 5000}}"#) }
        #expect(throws: ConfigError.self) { try Config.parse(#"{"mount": "x,x,z"}"#) }
        #expect(throws: ConfigError.self) { try Config.parse(#"{"gpio": {"leds": {"nod": 5}}}"#) }  // 5 is 'right' already
    }

    @Test func shippedDefaultConfigParses() throws {
        // The file deploy installs must load with the same reader.
        let path = #filePath.replacingOccurrences(of: "Tests/FormatsTests/ConfigTests.swift", with: "board/config.json")
        #expect(FileIO.exists(path), "board/config.json missing at \(path)")
        let c = try Config.load(path: path)
        // The README's default wiring: nod, shake, north, up, down, left, right, status.
        #expect(c.ledLines == [17, 27, 22, 23, 24, 25, 5, 6])
        #expect(c.gpioChip == "pinctrl-bcm2711")
    }

    // Once a NaN mount passed every tolerance check.
    @Test(arguments: ["nan,0,0,0,1,0,0,0,1", "1,0,0,0,nan,0,0,0,1", "inf,0,0,0,1,0,0,0,1", "1,0,0,0,1,0,0,0,-nan"])
    func nonFiniteMountIsRefused(text: String) {
        #expect(throws: MountError.self) { try Mount(parsing: text) }
        #expect(throws: ConfigError.self) { try Config.parse("{\"mount\": \"\(text)\"}") }
    }

    // Once invalid UTF-8 in a config string became U+FFFD.
    @Test func invalidUTF8InAConfigStringIsRefused() throws {
        let bytes = Array(#"{"i2c": {"device": "/dev/i2c-"#.utf8) + [0xFF, 0x31] + Array(#""}}"#.utf8)
        #expect(throws: ConfigError.self) { try Config.parse(bytes: bytes) }
        do { _ = try Config.parse(bytes: bytes, path: "c.json") } catch {
            #expect(error.description.contains("c.json"))
            #expect(error.description.contains("UTF-8"))
        }
        // Valid multi-byte UTF-8 is fine.
        #expect(try Config.parse(bytes: Array(#"{"i2c": {"device": "/dev/i2c-é"}}"#.utf8)).i2cDevice == "/dev/i2c-é")
        // A NUL would cut the C path short.
        #expect(throws: ConfigError.self) { try Config.parse(#"{"i2c": {"device": "/dev/i2c-1\u0000x"}}"#) }
    }

    // Once LED pin 17.9 was truncated to 17. Integers in JSON must be integers.
    @Test func fractionalPinsAndAddressesAreRefused() throws {
        for text in [#"{"gpio": {"leds": {"nod": 17.9}}}"#, #"{"gpio": {"leds": {"nod": 1e19}}}"#,
                     #"{"i2c": {"imuAddress": 104.5}}"#] {
            #expect(throws: ConfigError.self, "\(text) accepted") { try Config.parse(text) }
        }
        do { _ = try Config.parse(#"{"gpio": {"leds": {"nod": 17.9}}}"#, path: "c.json") } catch {
            #expect(error.description.contains("gpio.leds.nod"))
            #expect(error.description.contains("whole number"))
        }
        #expect(try Config.parse(#"{"gpio": {"leds": {"nod": 16}}}"#).ledLines[0] == 16)
        #expect(try Config.parse(#"{"i2c": {"imuAddress": 105}}"#).imuAddress == 105)
    }
}

extension String {
    fileprivate func replacingOccurrences(of a: String, with b: String) -> String {
        guard let r = range(of: a) else { return self }
        return replacingCharacters(in: r, with: b)
    }
}

/// The one JSON string writer every report uses: what it writes must parse back to the same text.
@Suite struct JSONQuotingTests {
    @Test(arguments: ["plain", "quote \" and backslash \\", "line\nbreak\ttab\rcr", "ctrl \u{01}\u{1f}", "µT °/s ✓"])
    func quotedTextParsesBack(text: String) throws {
        let literal = JSONValue.quoted(text)
        #expect(literal.hasPrefix("\"") && literal.hasSuffix("\""))
        #expect(try JSONParser.parse(literal) == .string(text))
    }
}

/// The event stream's config keys.
@Suite struct StreamConfigTests {
    @Test func streamKeys() throws {
        let c = try Config.parse(#"{"stream": {"socket": "/tmp/x.sock", "stateHz": 30}}"#)
        #expect(c.streamSocket == "/tmp/x.sock")
        #expect(c.streamStateHz == 30)
        #expect(Config().streamSocket == nil && Config().streamStateHz == 60)
        #expect(throws: ConfigError.self) { try Config.parse(#"{"stream": {"stateHz": -1}}"#) }
        #expect(throws: ConfigError.self) { try Config.parse(#"{"stream": {"port": 80}}"#) }
    }
}
