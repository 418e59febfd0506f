import Fusion
import Geometry
import Gestures
import Runtime
import Sensors

/// Runs a recorded trace through the same stages the product uses for gestures: mount → attitude filter
/// (6D when the trace has no magnetometer) → recognizer fed the bias-corrected head-frame rate and the
/// attitude. State starts afresh where the trace's `window` changes.
public enum GestureReplay {
    public static func detections<R: GestureRecognizer>(
        in trace: Trace, mount: Mount, recognizer: R,
        filterSettings: AttitudeFilter.Settings = AttitudeFilter.Settings()
    ) -> [GestureDetection] {
        var out: [GestureDetection] = []
        var filter = AttitudeFilter(settings: filterSettings)
        var detector = recognizer
        var window = trace.records.first?.window
        var lastTime = -Double.infinity
        for r in trace.records {
            if r.window != window {
                filter = AttitudeFilter(settings: filterSettings)
                detector = recognizer
                window = r.window
                lastTime = -Double.infinity
            }
            let dt = lastTime.isFinite ? r.t - lastTime : 0
            lastTime = r.t
            let gyro = mount.apply(r.gyro)
            filter.update(gyro: gyro, accel: mount.apply(r.accel), mag: r.mag.map { mount.apply($0) }, dt: dt)
            guard filter.isInitialized else { continue }
            if let e = detector.update(t: r.t, gyro: gyro - filter.gyroBias, attitude: filter.attitude) {
                out.append(GestureDetection(t: r.t, event: e))
            }
        }
        return out
    }
}
