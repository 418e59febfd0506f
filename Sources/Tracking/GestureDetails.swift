import Gestures

extension Pipeline {
    /// When the movement of the gesture `event` just reported at `t` began (loop seconds) and how many cycles
    /// the detector counted, for the stream's `start` and `count`: from the detector's own report, which the
    /// pipeline keeps; nil (sent as null, "where known") if that report is not this gesture's.
    public func streamDetails(of event: GestureEvent, at t: Double) -> (start: Double?, count: Int?) {
        guard let d = lastDetection, d.event == event, d.start <= t else { return (nil, nil) }
        return (d.start, d.count)
    }
}
