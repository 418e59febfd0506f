#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FoundationEssentials
import Evaluation
import Fusion
import Geometry
import Gestures
import Indicators
import Plots
import Tracking
import Formats

/// A minimal replay for the plot tests: trace -> attitude filter -> compass -> smoother (60 Hz) + gesture
/// detector -> LED panel, filling a `PlotData` the way `headtrack replay --plot` is meant to.
enum TracePlotting {
    /// Where the shared recordings live, found from this file's path (repo/Tests/EvaluationTests/...).
    static var sharedData: String {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/../shared/data"
    }

    /// `mount` maps a sensor-frame vector into the head frame (x forward, y left, z up).
    static func plot(trace: Trace, title: String, mount: (Vector3) -> Vector3, truth: [PlotData.Bout],
                     displayRate: Double = 60) -> PlotData {
        var data = PlotData(title: title)
        data.truthBouts = truth
        data.reserveCapacity(Int((trace.records.last?.t ?? 0) * displayRate) + 1)
        var filter = AttitudeFilter()
        let compass = TiltCompensatedCompass()
        var smoother = HeadingSmoother()
        var detector = GestureDetector()
        var panel = LedPanel()
        var previousT: Double? = nil
        var nextTick = trace.records.first?.t ?? 0
        let dt = 1 / displayRate
        var gyro = Vector3.zero
        for r in trace.records {
            let g = mount(r.gyro)
            filter.update(gyro: g, accel: mount(r.accel), mag: r.mag.map(mount), dt: previousT.map { r.t - $0 } ?? 0)
            previousT = r.t
            gyro = g
            if let event = detector.update(t: r.t, gyro: g, attitude: filter.attitude) {
                data.gestures.append(PlotData.Event(t: r.t, label: event.rawValue))
                if let led = GestureLedEvent(rawValue: event.rawValue) { panel.show(led, at: r.t) }
            }
            while nextTick <= r.t {
                let q = filter.attitude
                let reading = compass.heading(attitude: q, magnetometerTrusted: !filter.isMagneticallyDisturbed,
                                              hasMagnetometer: r.mag != nil)
                let shown = smoother.step(raw: reading, dt: dt)
                let euler = EulerAngles(q)
                // Rates about the gesture axes, as the detector levels them.
                let vertical = q.inverseRotate(Vector3(0, 0, 1))
                var left = Vector3(0, 1, 0) - vertical * vertical.y
                if left.length < 0.3 { left = Vector3(0, 1, 0) }
                left = left.normalized
                data.append(t: nextTick,
                            rawHeading: reading.isValid ? reading.degrees : .nan,
                            smoothedHeading: shown.hasValue ? shown.degrees : .nan,
                            roll: euler.roll * Units.degreesPerRadian, pitch: euler.pitch * Units.degreesPerRadian,
                            nodRate: gyro.dot(left) * Units.degreesPerRadian,
                            shakeRate: gyro.dot(vertical) * Units.degreesPerRadian,
                            ledMask: panel.mask(at: nextTick, heading: shown, fault: false))
                nextTick += dt
            }
        }
        return data
    }

    /// Bouts from a `NAME.truth.json` file (shared/data/README.md).
    static func truthBouts(path: String) throws -> [PlotData.Bout] {
        struct Truth: Decodable {
            struct Event: Decodable { var label: String; var t_start: Double; var t_end: Double }
            var events: [Event]
        }
        let bytes = try FileIO.read(path)
        let truth = try JSONDecoder().decode(Truth.self, from: Data(bytes))
        return truth.events.map { PlotData.Bout(start: $0.t_start, end: $0.t_end, label: $0.label) }
    }

    /// Writes `svg` to $HEADTRACK_PLOT_DIR/NAME when that variable is set, so a person can look at it.
    static func keep(_ svg: String, name: String) throws {
        guard let dir = getenv("HEADTRACK_PLOT_DIR").map({ String(cString: $0) }), !dir.isEmpty else { return }
        try FileIO.writeAtomically(dir + "/" + name, Array(svg.utf8))
    }
}
