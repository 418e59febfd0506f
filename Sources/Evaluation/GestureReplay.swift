import Fusion
import Geometry
import Gestures
import Tracking
import Sensors

/// Runs a recorded trace through the same stages the product uses for gestures: mount → attitude filter
/// (6D when the trace has no magnetometer) → recognizer fed the bias-corrected head-frame rate and the
/// attitude, through the product's `GestureInputDecimator` (about 100 Hz). State starts afresh where the trace's
/// `window` changes. A detection is stamped with the time of the sample that completed it.
public enum GestureReplay {
    /// `inputInterval`: the decimator's group span; 0 feeds every sample (for a recognizer defined per frame,
    /// such as the classic one).
    public static func detections<R: GestureRecognizer>(
        in trace: Trace, mount: Mount, recognizer: R,
        filterSettings: AttitudeFilter.Settings = AttitudeFilter.Settings(),
        inputInterval: Double = GestureInputDecimator.productInterval
    ) -> [GestureDetection] {
        var out: [GestureDetection] = []
        var filter = AttitudeFilter(settings: filterSettings)
        var detector = recognizer
        var decimator = GestureInputDecimator(minimumInterval: inputInterval)
        var window = trace.records.first?.window
        var lastTime = -Double.infinity
        for r in trace.records {
            if r.window != window {
                filter = AttitudeFilter(settings: filterSettings)
                detector = recognizer
                decimator = GestureInputDecimator(minimumInterval: inputInterval)
                window = r.window
                lastTime = -Double.infinity
            }
            let dt = lastTime.isFinite ? r.t - lastTime : 0
            lastTime = r.t
            let gyro = mount.apply(r.gyro), accel = mount.apply(r.accel)
            filter.update(gyro: gyro, accel: accel, mag: r.mag.map { mount.apply($0) }, dt: dt)
            guard filter.isInitialized else { continue }
            guard let s = decimator.add(t: r.t, gyro: gyro - filter.gyroBias, accel: accel) else { continue }
            if let e = detector.update(t: s.t, gyro: s.gyro, accel: s.accel, attitude: filter.attitude) {
                out.append(GestureDetection(t: r.t, event: e))
            }
        }
        return out
    }
}
