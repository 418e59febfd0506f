import Gestures

/// A gesture as the pipeline reports it: the detector's `DetectedGesture`, the time of the sample that completed
/// it and the bout it belongs to (`GestureBouts`). `processIMU` returns it, so whoever reports a gesture (the
/// stream's gesture line, the journal, the lab's scoring) has its details from the call that found it. Fixed-size
/// fields only: it is made on the per-sample path, which must not allocate.
public struct ReportedGesture: Sendable, Equatable {
    public var detection: DetectedGesture
    /// Time of the sample that completed it (s, loop or trace time): when it is known.
    public var t: Double
    /// Its bout's id (1, 2, ...; `GestureBouts.id`).
    public var bout: Int

    public init(_ detection: DetectedGesture, t: Double, bout: Int) {
        self.detection = detection; self.t = t; self.bout = bout
    }

    public var event: GestureEvent { detection.event }

    /// The stream's `start` (when the movement began), `count` (cycles) and `peak_dps` (the completing swing's
    /// peak rate, rad/s), nil where not known (sent as null): a start after `t` (a trace whose time went
    /// backwards) is none the stream can name, and a recognizer that does not measure its peak gives 0.
    public var start: Double? { startKnown ? detection.start : nil }
    public var count: Int? { startKnown ? detection.count : nil }
    public var peakRate: Double? { startKnown && detection.peakRate > 0 ? detection.peakRate : nil }
    private var startKnown: Bool { detection.start <= t }
}
