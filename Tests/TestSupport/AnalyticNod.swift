import LibC
import Geometry

/// Analytic head motion for the gesture verdict tests (the detector's and the stream's): a level head pitching
/// down 12° in 0.25 s from 1 s, holding `hold` s, and back up in 0.25 s, each swing a raised-cosine rate.
public enum AnalyticNod {
    /// Rate about the left axis (rad/s) of a raised-cosine swing of `angle` over `duration` from `start`.
    public static func swing(_ t: Double, start: Double, duration: Double, angle: Double) -> Double {
        let u = t - start
        guard u >= 0 && u < duration else { return 0 }
        return angle / duration * (1 - cos(2 * Double.pi * u / duration))
    }

    /// The head's rate (rad/s, head frame: x forward, y left, z up) at `t`; positive pitch tips the nose down.
    public static func downHoldUp(_ t: Double, hold: Double) -> Vector3 {
        let angle = 12 * Units.radiansPerDegree
        let rate = swing(t, start: 1, duration: 0.25, angle: angle) - swing(t, start: 1.25 + hold, duration: 0.25, angle: angle)
        return Vector3(0, rate, 0)
    }
}
