import Geometry
import Testing
@testable import Tracking
@testable import Formats

/// A trace's `frame` line read as a mount. The truth is stated independently of the parser: the shared
/// recordings' README says their mount is `forward = −x, left = +z, up = +y` (`--mount=-x,z,y`).
@Suite struct TraceWornMountTests {
    private func mount(_ frame: String) -> Mount? { Trace(metadata: ["frame": frame]).wornMount }

    @Test func theSharedHeadphoneFrameLineIsTheDocumentedMount() throws {
        let stated = mount("sensor axes as recorded; worn: X back, Y up, Z left")
        #expect(stated == (try Mount(parsing: "-x,z,y")))
    }

    @Test func theFixtureFileCarriesIt() throws {
        let path = #filePath.split(separator: "/").dropLast(2).joined(separator: "/")
        let trace = try TraceFile.read(path: "/" + path + "/GesturesTests/Fixtures/st26_walk.csv")
        #expect(trace.wornMount == (try Mount(parsing: "-x,z,y")))
    }

    @Test func everyDirectionWordAndOrderIsRead() throws {
        #expect(mount("worn: X forward, Y left, Z up") == .identity)
        #expect(mount("Worn: z UP, x Front, y left") == .identity)
        // Upside down: X forward, Y right, Z down is a proper rotation (180° about forward).
        #expect(mount("worn: X forward, Y right, Z down") == (try Mount(parsing: "x,-y,-z")))
        #expect(mount("earbud; worn: Y forwards, X right, Z up; more text") == (try Mount(parsing: "y,-x,z")))
    }

    @Test func whatCannotBeReadExactlyIsNotGuessed() {
        #expect(mount("sensor axes as recorded") == nil)                    // no worn: clause
        #expect(mount("worn: X back, Y up") == nil)                         // two axes
        #expect(mount("worn: X back, Y up, Z left, X up") == nil)           // four parts
        #expect(mount("worn: X back, X up, Z left") == nil)                 // a sensor axis twice
        #expect(mount("worn: X back, Y back, Z left") == nil)               // a head axis twice
        #expect(mount("worn: X forward, Y right, Z up") == nil)             // mirrored (left-handed)
        #expect(mount("worn: X backish, Y up, Z left") == nil)              // unknown direction
        #expect(mount("worn: X roughly back, Y up, Z left") == nil)         // more than axis and direction
        #expect(mount("worn: W back, Y up, Z left") == nil)                 // no such axis
        #expect(mount("worn: " + String(repeating: "X back, ", count: 200)) == nil)  // absurdly long
        #expect(Trace().wornMount == nil)                                   // no frame line at all
    }
}
