import Testing
import Fusion
import SensorCalibration
@testable import Formats

/// Config and calibration range errors say `FILE:LINE: field: …` (the README's promise), and quote the number
/// the file wrote: a million digits are said to be a million digits, not "inf".
@Suite struct FileLineErrorTests {
    static func configError(_ text: String) -> String {
        do { _ = try Config.parse(text, path: "/etc/headtrack/config.json"); return "accepted" } catch { return error.description }
    }

    static func calibrationError(_ text: String) -> String {
        do { _ = try CalibrationStore.decode(text, path: "cal.json"); return "accepted" } catch { return error.description }
    }

    @Test func configRangeErrorNamesFileLineAndField() {
        let text = """
            {
              // the lab board
              "i2c": { "device": "/dev/i2c-1" },
              "rates": { "magHz": 50,
                         "imuHz": 5000 }
            }
            """
        #expect(Self.configError(text) == "/etc/headtrack/config.json:5: rates.imuHz: 5000 is out of range 10...1000")
    }

    @Test func configLinesCountBlockCommentsAndNestedObjects() {
        let text = "{\n /* two\n lines */ \"gpio\": {\n  \"leds\": {\n   \"nod\": 17.5\n  }\n }\n}"
        #expect(Self.configError(text) == "/etc/headtrack/config.json:5: gpio.leds.nod: 17.5 is not a whole number (expected 0...511)")
        let shared = "{\"gpio\": {\n\"leds\": {\"nod\": 5}}}"  // 5 is `right` already
        #expect(Self.configError(shared).hasPrefix("/etc/headtrack/config.json:2: gpio.leds: two LEDs share a line"))
    }

    @Test func configMillionDigitNumberIsReportedAsSuch() {
        let digits = String(repeating: "1", count: 1_000_000)
        let error = Self.configError("{\"declinationDeg\":\n \(digits)}")
        #expect(error.hasPrefix("/etc/headtrack/config.json:2: declinationDeg: 1111111111"), "\(error.prefix(120))")
        #expect(error.hasSuffix("…(1000000 digits) is out of range -180...180"), "\(error.suffix(80))")
        #expect(!error.contains("inf"))
        #expect(error.utf8.count < 300)
        #expect(Self.configError("{\"rates\": {\"imuHz\": 1e400}}") == "/etc/headtrack/config.json:1: rates.imuHz: 1e400 is out of range 10...1000")
    }

    static let good = CalibrationStore.encode(Calibration(gyroBias: .init(0.01, 0, 0),
                                                          magnetometer: MagnetometerCorrection(hardIron: .init(20, -30, 10), softIron: .identity)))

    @Test func calibrationRangeErrorNamesFileAndLine() {
        // The encoder writes one field per line: hardIron on line 5.
        let lines = Self.good.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let n = lines.firstIndex { $0.contains("hardIron") }! + 1
        let bad = Self.good.replacing("[20.0, -30.0, 10.0]", with: "[20.0, -30.0, 9000]")
        #expect(Self.calibrationError(bad).hasPrefix("cal.json:\(n): \"magnetometer.hardIron\" holds 9000, outside -5000.0...5000.0"),
                "\(Self.calibrationError(bad))")
    }

    @Test func calibrationMillionDigitNumberIsReportedAsSuch() {
        let digits = String(repeating: "9", count: 1_000_000)
        let bad = Self.good.replacing("\"gyroBias\": [0.01,", with: "\"gyroBias\": [\(digits),")
        let error = Self.calibrationError(bad)
        #expect(error.contains("cal.json:3: \"gyroBias\" holds 9999999999"), "\(error.prefix(120))")
        #expect(error.contains("…(1000000 digits), outside -1.0...1.0"), "\(error.suffix(160))")
        #expect(!error.contains("inf") && error.utf8.count < 300)
    }
}
