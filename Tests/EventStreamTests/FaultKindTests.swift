import Foundation
import Testing
import Sensors
import Hardware
@testable import EventStream

/// The fault kinds a client may see: each sensor error maps to its kind, and the names are the ones
/// docs/protocol.md promises, no more and no fewer.
@Suite struct FaultKindTests {
    @Test func sensorErrorsMapToTheirKinds() {
        #expect(FaultKind(.bus(.noAcknowledge(address: 0x68))) == .busNoAcknowledge)
        #expect(FaultKind(.bus(.timeout(address: 0x68))) == .busTimeout)
        #expect(FaultKind(.frozenData("x")) == .frozenData)
        #expect(FaultKind(.magneticOverflow) == .magneticOverflow)
    }

    @Test func theNamesAreTheProtocolDocumentsList() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let protocolDoc = try String(contentsOf: root.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        let row = try #require(protocolDoc.split(separator: "\n").first { $0.hasPrefix("| `fault` |") })
        // The kinds are the backquoted words in the row's parenthesis after `kind`.
        let list = try #require(row.range(of: "`kind` (")).upperBound
        let inside = row[list...].prefix { $0 != ")" }
        let documented = Set(inside.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) })
        let names = FaultKind.allCases.map { "\($0.name)" }
        #expect(Set(names).count == names.count, "two kinds share a name: \(names)")
        #expect(Set(names) == documented, "code \(names.sorted()), docs \(documented.sorted())")
    }
}
