import Geometry

/// How fast a directional flick must be. The classic recipe thresholds the change of pitch or yaw per display
/// frame at 60 Hz (0.02 / 0.04 / 0.08 rad per frame); the same head speeds as angular rates are 1.2 / 2.4 /
/// 4.8 rad/s, which mean the same thing at every sample rate.
public enum FlickPreset: String, Sendable, CaseIterable, Equatable {
    case sensitive, normal, firm

    /// Peak angular rate (rad/s) a flick must reach.
    public var rate: Double { classicThresholdPerFrame * 60 }

    /// The classic recipe's threshold: radians per frame at 60 Hz.
    public var classicThresholdPerFrame: Double {
        switch self {
        case .sensitive: return 0.02
        case .normal: return 0.04
        case .firm: return 0.08
        }
    }
}

extension GestureDetector {
    /// Every parameter of the detector, with the reason for its default. Rates in rad/s, times in s, so the
    /// same settings mean the same head motion at any sample rate.
    public struct Settings: Sendable, Equatable {
        // MARK: Half-waves (the building block of nods and shakes)

        /// A swing about an axis starts when the rate exceeds this, and ends when it falls below half of it
        /// (hysteresis, so gyro noise at 1 kHz cannot chop one swing into several). 0.2 rad/s (11 °/s) is far
        /// above gyro noise and the bias left after calibration, and below the slow ends of every gesture.
        public var activeRate = 0.2

        /// A half-wave must peak at least this fast: 1 rad/s (57 °/s). A deliberate nod of ±5° at 2 Hz already
        /// peaks at 63 °/s, while walking rocks the head in pitch and roll well below that (the vestibular
        /// reflexes steady the head on every step) and looking around is slower still.
        public var peakRate = 1.0

        /// Longest half-wave, measured between the threshold crossings: 0.7 s, i.e. a back-and-forth faster
        /// than about 0.7 Hz. Slower oscillation is swaying or looking around, not a gesture; it is also the
        /// limit the reference recordings were labelled with.
        public var maxHalfWaveDuration = 0.7

        /// Longest pause between two half-waves of one gesture (s): half-waves further apart are separate
        /// movements (the labelling rule of the reference recordings joins oscillations < 0.7 s apart).
        public var maxGap = 0.7

        /// The gesture axis must dominate: its peak must be at least this many times the largest change of the
        /// rate about the other axis during the half-wave. 2 keeps the rotation axis within ~27° of the gesture
        /// axis, so a diagonal sway (roll and yaw together) is neither a nod nor a shake. It is the change of
        /// the other rate, not its size, so a nod made during a steady turn still counts.
        public var dominance = 2.0

        /// Two half-waves alternate when their rotation axes are within this angle of opposite (rad): 45°.
        /// Walking rocks the head in roll and pitch by turns, whose axes are about 90° apart.
        public var alternationTolerance = 45 * Units.radiansPerDegree

        /// Alternating half-waves that make a nod (down-up): 2.
        public var nodHalfWaves = 2

        /// Alternating half-waves that make a shake (left-right-left): 3. Two would make every glance to the
        /// side and back a shake.
        public var shakeHalfWaves = 3

        /// Minimum time between two reported gestures (s): one deliberate gesture, one LED flash.
        public var cooldown = 0.5

        /// Time constant of the low-pass on the angular rate (s): 0.016 s, a 10 Hz corner. Head gestures live
        /// below 5 Hz; the filter makes a 1 kHz stream (vibration, footfall spikes) look like a 26–100 Hz one.
        public var smoothingTimeConstant = 0.016

        // MARK: Directional flicks (off by default)

        /// Report up/down/left/right flicks: single quick movements that are not part of a nod or shake.
        public var flicks = false

        /// Peak rate a flick must reach (rad/s); see `FlickPreset`. Default: the `normal` preset, 2.4 rad/s.
        public var flickRate = FlickPreset.normal.rate

        /// A flick is reported this long after its movement ends, if no opposite movement has begun by then
        /// (s). 0.2 s: a nod's second half-wave follows its first at once, a flick is held for a moment.
        public var flickHold = 0.2

        public init() {}

        /// The settings a config file asks for: flicks on or off, the flick preset, the cooldown.
        public init(flicks: Bool, preset: FlickPreset = .normal, cooldown: Double = 0.5) {
            self.init()
            self.flicks = flicks
            self.flickRate = preset.rate
            self.cooldown = cooldown
        }

        public static let `default` = Settings()
    }
}
