import Indicators
import Testing
@testable import Formats
@testable import EventStream

/// The LED names are written three times, each for a reason: the config's `gpio.leds` keys (String, parsed),
/// the panel's `Led` cases (the mask's bit positions) and the stream's state line (StaticString, so
/// formatting allocates nothing). A name or an order that drifts in one of them would light, or report, the
/// wrong LED: they must agree name for name, in mask bit order.
struct StreamLedNamesTests {
    @Test func streamConfigAndPanelNameTheSameLedsInMaskOrder() {
        let stream = EventStream.ledNames.map { $0.withUTF8Buffer { String(decoding: $0, as: UTF8.self) } }
        #expect(stream == Config.ledNames)
        #expect(Led.allCases.map(\.name) == Config.ledNames)
        #expect(Led.allCases.map(\.rawValue) == Array(0..<Config.ledNames.count))
    }
}
