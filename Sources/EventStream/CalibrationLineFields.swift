import Geometry
import SensorCalibration
import Formats

/// The fields the guided session's and the background calibration's `calibration` lines share (docs/protocol.md,
/// "Messages from the tracker"), written the one way both feeds use.
extension LineBuffer {
    /// `[x,y,z]`.
    func vector(_ v: Vector3, _ decimals: Int) {
        byte(UInt8(ascii: "["))
        fixed(v.x, decimals); byte(UInt8(ascii: ","))
        fixed(v.y, decimals); byte(UInt8(ascii: ","))
        fixed(v.z, decimals)
        byte(UInt8(ascii: "]"))
    }

    /// `"hard_iron_ut":[…],"soft_iron":[[…],[…],[…]]`.
    func correctionFields(_ c: MagnetometerCorrection) {
        literal("\"hard_iron_ut\":")
        vector(c.hardIron, 3)
        literal(",\"soft_iron\":[")
        vector(c.softIron.row0, 5); byte(UInt8(ascii: ","))
        vector(c.softIron.row1, 5); byte(UInt8(ascii: ","))
        vector(c.softIron.row2, 5)
        byte(UInt8(ascii: "]"))
    }

    /// `"fit":{…}` without its `cells` and closing brace: correction, field, residual, inliers, coverage,
    /// spread, samples.
    func fitFields(_ c: MagnetometerCorrection, fieldStrength: Double, residual: Double, inliers: Double,
                   coverage: Double, spread: Double, samples: Int) {
        literal("{")
        correctionFields(c)
        literal(",\"field_ut\":")
        fixed(fieldStrength, 2)
        literal(",\"residual\":")
        fixed(residual, 4)
        literal(",\"inliers\":")
        fixed(inliers, 4)
        literal(",\"coverage\":")
        fixed(coverage, 4)
        literal(",\"spread\":")
        fixed(spread, 4)
        literal(",\"samples\":")
        integer(Int64(samples))
    }

    /// `,"need":{…},"cell_grid":{…}` without the closing brace of the line.
    func needAndGrid(_ need: EllipsoidFit.Criteria) {
        literal(",\"need\":{\"coverage\":")
        fixed(need.minimumCoverage, 3)
        literal(",\"spread\":")
        fixed(need.minimumSpread, 3)
        literal(",\"residual\":")
        fixed(need.maximumResidual, 3)
        literal(",\"inliers\":")
        fixed(need.minimumInliers, 3)
        literal(",\"per_cell\":")
        integer(Int64(need.samplesPerCell))
        literal("},\"cell_grid\":{\"bands\":")
        integer(Int64(SphereCoverage.bands))
        literal(",\"sectors\":")
        integer(Int64(SphereCoverage.sectors))
        literal("}")
    }
}
