import Gestures

extension Pipeline {
    /// When the movement of the gesture `event` just reported at `t` began (loop seconds), how many cycles
    /// the detector counted and its strength (the completing swing's peak rate, rad/s), for the stream's
    /// `start`, `count` and `peak_dps`: from the detector's own report, which the pipeline keeps; nil (sent as
    /// null, "where known") if that report is not this gesture's. And the bout it belongs to (`GestureBouts`).
    public func streamDetails(of event: GestureEvent, at t: Double) -> (start: Double?, count: Int?, bout: Int?, peakRate: Double?) {
        let bout = bouts.id > 0 && bouts.kind == event ? bouts.id : nil
        guard let d = lastDetection, d.event == event, d.start <= t else { return (nil, nil, bout, nil) }
        return (d.start, d.count, bout, d.peakRate > 0 ? d.peakRate : nil)
    }
}
