import LibC
import Geometry

/// Tilt-compensated heading of the head's forward axis (body +x), from the fused attitude.
public struct TiltCompensatedCompass: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Magnetic declination (degrees, east positive) added to turn magnetic into true north.
        public var declinationDegrees: Double = 0
        /// Beyond this pitch (degrees) the forward axis' horizontal part is too short to give a heading.
        public var maxPitchDegrees: Double = 70
        public init() {}
        public static let `default` = Settings()
    }

    public var settings: Settings { didSet { minimumHorizontal2 = TiltCompensatedCompass.squaredHorizontalLimit(settings) } }
    /// cos(maxPitch)², computed when the settings change rather than per call (the cosine of a constant
    /// was most of this stage's cost); −1 when any pitch is allowed (maxPitch ≥ 90°).
    private var minimumHorizontal2: Double

    public init(settings: Settings = .default) {
        self.settings = settings
        minimumHorizontal2 = TiltCompensatedCompass.squaredHorizontalLimit(settings)
    }

    private static func squaredHorizontalLimit(_ s: Settings) -> Double {
        let c = cos(s.maxPitchDegrees * Units.radiansPerDegree)
        return c > 0 ? c * c : -1
    }

    public func heading(attitude q: Quaternion, magnetometerTrusted: Bool, hasMagnetometer: Bool = true) -> HeadingReading {
        // The forward axis (body +x) in ENU: the first column of q's rotation matrix, without a full rotate.
        let east = 1 - 2 * (q.y * q.y + q.z * q.z), north = 2 * (q.x * q.y + q.w * q.z)
        let horizontal2 = east * east + north * north
        let degrees = wrapDegrees360(atan2(east, north) * Units.degreesPerRadian + settings.declinationDegrees)
        let validity: HeadingReading.Validity
        if !hasMagnetometer {
            validity = .noMagnetometer
        } else if horizontal2 < minimumHorizontal2 {
            validity = .headNearVertical
        } else if !magnetometerTrusted {
            validity = .magneticDisturbance
        } else {
            validity = .valid
        }
        return HeadingReading(degrees: degrees, validity: validity)
    }

    /// Heading straight from one accelerometer and one magnetometer sample (no filter), for checks and probes.
    public func heading(accel: Vector3, mag: Vector3) -> HeadingReading {
        guard let q = AttitudeFilter.attitudeFrom(accel: accel, mag: mag) else {
            return HeadingReading(degrees: 0, validity: .headNearVertical)
        }
        return heading(attitude: q, magnetometerTrusted: true)
    }
}
