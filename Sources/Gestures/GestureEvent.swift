/// A head gesture. Raw values are the names used in event files and on the command line.
public enum GestureEvent: String, Sendable, CaseIterable, Equatable {
    case nod, shake, up, down, left, right
}

/// A gesture as the detector reports it: what, when it began and how far it had got when it became certain.
/// One per gesture: a nod bout of four cycles is one `DetectedGesture`, reported during its completing swing.
public struct DetectedGesture: Sendable, Equatable {
    public var event: GestureEvent
    /// Time the gesture's first swing began (s, same clock as the samples).
    public var start: Double
    /// Swings (half-waves) seen when it was reported, the completing one included; 1 for a flick.
    public var swings: Int
    /// The fastest the completing swing turned (rad/s) and the widest swing of the run (rad): the gesture's
    /// strength, for an app that wants its own threshold; 0 where not measured.
    public var peakRate: Double = 0
    public var largestAngle: Double = 0
    /// Cycles seen so far (a cycle is a swing there and back: two swings; a flick counts as 1).
    public var count: Int { (swings + 1) / 2 }

    public init(event: GestureEvent, start: Double, swings: Int) {
        self.event = event; self.start = start; self.swings = swings
    }
}
