/// A compass heading with an explicit validity, so nothing downstream shows a number it should not trust.
public struct HeadingReading: Sendable, Equatable {
    public enum Validity: Sendable, Equatable {
        case valid
        /// The forward axis points nearly straight up or down: heading is undefined there.
        case headNearVertical
        case magneticDisturbance
        case noMagnetometer
    }

    /// Degrees clockwise from north in [0, 360). Meaningful only when `validity == .valid`.
    public var degrees: Double
    public var validity: Validity
    public var isValid: Bool { validity == .valid }

    public init(degrees: Double, validity: Validity) {
        self.degrees = degrees
        self.validity = validity
    }
}
