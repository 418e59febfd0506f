import LibC
import Geometry
import Gestures

/// The classic head-gesture recipe, kept as the baseline the detector is measured against. Implemented as the
/// recipe states it, weaknesses included:
///
/// - per frame, take the change of pitch and of yaw (Euler angles of the attitude in the head frame);
/// - if |Δpitch| exceeds the threshold, it is "down" or "up"; else if |Δyaw| does, "left" or "right";
/// - after an event, ignore everything for the cooldown;
/// - "up"/"down" are reported as a nod and "left"/"right" as a shake.
///
/// The threshold is per frame, so it means a different head speed at every rate the recipe is fed: 0.04 rad
/// per frame is 2.4 rad/s at 60 Hz but 1.04 rad/s at 26 Hz. The only liberty taken: Δyaw is wrapped into
/// (−π, π], since the jump of the Euler yaw from +π to −π is an artefact of the angle representation, not
/// head motion.
public struct ClassicGestureDetector: GestureRecognizer {
    public struct Settings: Sendable, Equatable {
        /// Change of pitch or yaw per frame (rad) that counts as a gesture: the recipe's 0.04.
        public var thresholdPerFrame = FlickPreset.normal.classicThresholdPerFrame
        /// Time after an event during which nothing is reported (s): the recipe's 0.5.
        public var cooldown = 0.5
        /// Report the raw directions (up/down/left/right) instead of mapping them to nod/shake.
        public var reportsDirections = false
        public init() {}
        public static let `default` = Settings()
    }

    public let settings: Settings
    private var previous: EulerAngles? = nil
    private var lastEvent = -Double.infinity

    public init(settings: Settings = .default) { self.settings = settings }

    // MARK: GestureRecognizer (the lab runs the recipe through the product's pipeline)

    public static var defaultSettings: Settings { .default }
    /// The recipe is defined per frame: every sample.
    public static var inputInterval: Double { 0 }
    /// The recipe knows pitch and yaw only, mount or not.
    public init(settings: Settings, headAxesKnown: Bool) { self.init(settings: settings) }
    /// The recipe has no answer mode: it reports the same whether or not a question is pending.
    public var listening = false

    /// The recipe has no notion of a gesture's extent: each event is a one-swing gesture at its frame.
    public mutating func recognize(t: Double, gyro: Vector3, accel: Vector3, attitude: Quaternion) -> DetectedGesture? {
        update(t: t, gyro: gyro, attitude: attitude).map { DetectedGesture(event: $0, start: t, swings: 1) }
    }

    public mutating func update(t: Double, gyro: Vector3, attitude: Quaternion) -> GestureEvent? {
        guard attitude.isFinite, t.isFinite else { return nil }
        let angles = EulerAngles(attitude)
        defer { previous = angles }
        guard let before = previous else { return nil }
        let deltaPitch = angles.pitch - before.pitch
        var deltaYaw = angles.yaw - before.yaw
        if deltaYaw > Double.pi { deltaYaw -= 2 * Double.pi }
        if deltaYaw <= -Double.pi { deltaYaw += 2 * Double.pi }
        guard t - lastEvent >= settings.cooldown else { return nil }
        let direction: GestureEvent
        if abs(deltaPitch) > settings.thresholdPerFrame {
            direction = deltaPitch > 0 ? .down : .up      // pitch is positive nose-down
        } else if abs(deltaYaw) > settings.thresholdPerFrame {
            direction = deltaYaw > 0 ? .left : .right     // yaw is positive counter-clockwise from above
        } else {
            return nil
        }
        lastEvent = t
        if settings.reportsDirections { return direction }
        return direction == .up || direction == .down ? .nod : .shake
    }
}
