#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Fusion

/// The filter measures the field's dip from a fixed anchor near the learned reference instead of a pair turned
/// with the reference at every sample: the dip must be libm's atan2 of the field wherever the anchor is within
/// its follow distance, and the anchor must come along once the reference moves further.
@Suite struct DipAnchorTests {
    @Test func dipFromTheAnchorIsTheFieldsDip() {
        for anchorDegrees in [-80.0, -60, -5, 0, 30, 64, 89] {
            let anchor = DipAnchor(anchorDegrees * .pi / 180)
            // Fields from 12° below to 12° above the anchor, of several strengths.
            for offsetTenths in -120...120 {
                let dip = anchor.angle + Double(offsetTenths) / 10 * .pi / 180
                for norm in [20.0, 48.0, 65.0] {
                    let horizontal = norm * cos(dip), down = norm * sin(dip)
                    let measured = anchor.angle + anchor.pair.angle(to: horizontal, down)
                    #expect(abs(measured - atan2(down, horizontal)) <= 4e-16, "anchor \(anchorDegrees)°, dip \(dip)")
                }
            }
        }
    }

    @Test func theAnchorFollowsAReferenceThatMovesAway() {
        var anchor = DipAnchor(1.0)
        anchor.follow(1.0 + 0.9 / 64)
        #expect(anchor.angle == 1.0)  // within 1/64 rad: stays
        anchor.follow(1.0 + 1.1 / 64)
        #expect(anchor.angle == 1.0 + 1.1 / 64)
        #expect(anchor.pair.cos == cos(anchor.angle) && anchor.pair.sin == sin(anchor.angle))
    }
}
