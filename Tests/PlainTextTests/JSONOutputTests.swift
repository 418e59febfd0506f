import Testing
import PlainText

/// The one JSON writer: its text for hand-worked cases, its escaping, and what the project's parser reads back.
@Suite struct JSONOutputTests {
    @Test func eachLayoutWritesTheTextWorkedOutByHand() {
        let value = JSONOutput.object { o in
            o.add("a", .integer(1))
            o.add("b", .array([.bool(true), .null]))
        }
        #expect(value.text() == "{\n  \"a\": 1,\n  \"b\": [\n    true,\n    null\n  ]\n}")
        let inline = JSONOutput.object(.inline) { o in
            o.add("a", .integer(1))
            o.add("b", .array([.bool(true), .null]))
        }
        #expect(inline.text() == #"{"a": 1, "b": [true, null]}"#)
        let compact = JSONOutput.object(.compact) { o in
            o.add("a", .integer(-7))
            o.add("b", .array([.bool(false)]))
        }
        #expect(compact.text() == #"{"a":-7,"b":[false]}"#)
    }

    /// The calibration file's shape: indented levels holding one-line arrays and objects, each at its depth.
    @Test func nestedLayoutsIndentByDepth() {
        let value = JSONOutput.object { o in
            o.add("m", .object { m in
                m.add("row", .array(.inline, [.number(0.25, digits: 2), .number(-1, digits: 0)]))
                m.add("fit", .object(.inline) { f in f.add("n", .integer(3)); f.add("x", .object { _ in }) })
            })
            o.add("empty", .array([]))
        }
        #expect(value.text() == """
            {
              "m": {
                "row": [0.25, -1],
                "fit": {"n": 3, "x": {}}
              },
              "empty": []
            }
            """)
    }

    @Test func aContainerInsideAOneLineContainerStaysOnItsLine() {
        let value = JSONOutput.object(.compact) { o in o.add("x", .array(.indented, [.integer(1), .integer(2)])) }
        #expect(value.text() == #"{"x":[1,2]}"#)
    }

    @Test func numbersKeepTheirDigitsAndMissingOnesAreNull() {
        let values: [(JSONOutput, String)] = [
            (.number(2.5, digits: 0), "3"),            // fixed rounds half away from zero, as printf
            (.number(-0.0001, digits: 2), "0.00"),     // no "-0.00"
            (.number(1.5, digits: 3), "1.500"),
            (.number(nil, digits: 1), "null"),
            (.number(.nan, digits: 1), "null"),
            (.number(-.infinity, digits: 1), "null"),
            (.number(roundTrip: 0.1), "0.1"),
            (.number(roundTrip: 3), "3.0"),
            (.number(roundTrip: 44.30925890026717), "44.30925890026717"),
            (.number(roundTrip: .infinity), "null"),
            (.integer(Int64.min), "-9223372036854775808"),
            (.integer(UInt8(255)), "255"),
            (.integer(Int?.none), "null"),
            (.string(nil), "null"),
        ]
        for (value, expected) in values { #expect(value.text() == expected) }
    }

    @Test func stringsAndKeysAreEscaped() {
        let value = JSONOutput.object(.compact) { o in
            o.add("say \"hi\"", .string("back\\slash\nline\ttab\r\u{1}\u{1f}"))
            o.add("ü", .string("héad ✓ \u{2028}"))
        }
        #expect(value.text() == #"{"say \"hi\"":"back\\slash\nline\ttab\r\u0001\u001f","ü":"héad ✓ "# + "\u{2028}\"}")
        #expect(value.text(forScript: true).hasSuffix(#""héad ✓ \u2028"}"#))
    }

    /// Whatever is written, the project's own parser reads back as the same values.
    @Test func writtenTextParsesBackToTheSameValues() throws {
        let awkward = "quote \" backslash \\ nul-free controls \u{7}\u{1b} tab\t é 中 🙂 \u{2029}"
        for layout in [JSONLayout.indented, .inline, .compact] {
            let value = JSONOutput.object(layout) { o in
                o.add("text", .string(awkward))
                o.add(awkward, .integer(42))
                o.add("exact", .number(roundTrip: 0.1 + 0.2))
                o.add("rounded", .number(2.0 / 3.0, digits: 4))
                o.add("nested", .array([.object { n in n.add("deep", .array([.array([.null, .bool(true)])])) }, .array([])]))
            }
            let back = try JSONParser.parse(value.text(forScript: layout == .compact))
            let expected = JSONValue.object([
                ("text", .string(awkward)),
                (awkward, .number(42)),
                ("exact", .number(0.1 + 0.2)),
                ("rounded", .number(0.6667)),
                ("nested", .array([.object([("deep", .array([.array([.null, .bool(true)])]))]), .array([])])),
            ])
            #expect(back == expected, "\(layout)")
        }
    }
}
