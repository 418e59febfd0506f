/// The facts of the head-gesture model that both the gesture detector (`Gestures`) and the mount learner
/// (`MountLearning`) stand on. The two sit on one floor and cannot import each other, so the numbers live here,
/// once: tune the detector and the learner follows. Why each value is what it is: the detector's settings of
/// the same names (`GestureDetector.Settings`), where every default is argued.
public enum HeadGestureFacts {
    /// A swing starts when the head turns faster than this (rad/s): 0.2 rad/s, 11 °/s.
    public static let activeRate = 0.2
    /// Every swing of a nod or shake peaks at least this fast (rad/s): 26 °/s, the `normal` preset.
    public static let swingRate = 26 * Units.radiansPerDegree
    /// … turns the head at least this far (rad): 3°.
    public static let minSwingAngle = 3 * Units.radiansPerDegree
    /// … lasts at most this long (s): 0.7 s.
    public static let maxSwingDuration = 0.7
    /// … and turns the head at most this far (rad): 91°, the whole range of the widest vigorous shake.
    public static let maxSwingAngle = 91 * Units.radiansPerDegree
    /// The longest pause between two swings of one gesture (s): 0.7 s.
    public static let maxGap = 0.7
    /// Two swings alternate when their axes are within this of opposite (rad): 45°.
    public static let alternationTolerance = 45 * Units.radiansPerDegree
}
