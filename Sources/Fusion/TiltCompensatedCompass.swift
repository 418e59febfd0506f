#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
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

    public var settings: Settings

    public init(settings: Settings = .default) { self.settings = settings }

    public func heading(attitude q: Quaternion, magnetometerTrusted: Bool, hasMagnetometer: Bool = true) -> HeadingReading {
        let forward = q.rotate(Vector3(1, 0, 0))
        let horizontal = (forward.x * forward.x + forward.y * forward.y).squareRoot()
        let degrees = wrapDegrees360(atan2(forward.x, forward.y) * Units.degreesPerRadian + settings.declinationDegrees)
        let validity: HeadingReading.Validity
        if !hasMagnetometer {
            validity = .noMagnetometer
        } else if horizontal < cos(settings.maxPitchDegrees * Units.radiansPerDegree) {
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
