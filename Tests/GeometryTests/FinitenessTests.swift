import Geometry
import Testing

/// `Vector3.isFinite` and `Quaternion.isFinite` are computed as a sum of products with zero (cheaper than one
/// test per component): they must agree with every component's own `Double.isFinite`, whatever the other
/// components hold.
@Suite struct FinitenessTests {
    static let values: [Double] = [0, -0.0, 1, -3.5, .leastNonzeroMagnitude, -.leastNormalMagnitude,
                                   .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity,
                                   .nan, -.nan, .signalingNaN]

    @Test func vectorIsFiniteExactlyWhenEveryComponentIs() {
        for x in FinitenessTests.values { for y in FinitenessTests.values { for z in FinitenessTests.values {
            let expected = x.isFinite && y.isFinite && z.isFinite
            #expect(Vector3(x, y, z).isFinite == expected, "(\(x), \(y), \(z))")
        } } }
    }

    @Test func quaternionIsFiniteExactlyWhenEveryComponentIs() {
        let v = FinitenessTests.values
        for w in v { for x in v { for y in v { for z in v {
            let expected = w.isFinite && x.isFinite && y.isFinite && z.isFinite
            #expect(Quaternion(w: w, x: x, y: y, z: z).isFinite == expected, "(\(w), \(x), \(y), \(z))")
        } } } }
    }
}
