/// The verdicts worth telling: one per candidate (its kind, where its run began, its swings) and per change of
/// its verdict, so a swing past its peak, judged again at every sample, is told once. A fixed-size value, so
/// the loop's event stream keeps one as `replay --explain` does, allocating nothing.
public struct GestureVerdictChanges: Sendable {
    private var seen = 0
    private var last: (event: GestureEvent, start: Double, swings: Int, failed: UInt16)? = nil

    public init() {}

    /// The detector's latest verdict if it is new and differs from the one told last; nil otherwise.
    public mutating func next(_ detector: GestureDetector) -> GestureVerdict? {
        guard detector.verdicts != seen, let v = detector.verdict else { return nil }
        seen = detector.verdicts
        if let l = last, l.event == v.event, l.start == v.start, l.swings == v.swings, l.failed == v.failed { return nil }
        last = (v.event, v.start, v.swings, v.failed)
        return v
    }
}
