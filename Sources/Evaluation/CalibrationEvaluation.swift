import Fusion
import SensorCalibration
import Geometry
import Tracking
import Formats
import Simulation

/// A known magnetometer distortion to put on a clean recording: `distorted = softIron · raw + hardIron`.
/// `softIron` is symmetric (the only part a calibration can see; an antisymmetric part is a rotation of the
/// sensor, which no field-strength fit can recover).
public struct MagnetometerDistortion: Sendable, Equatable {
    public var name: String
    public var hardIron: Vector3
    public var softIron: Matrix3

    public init(name: String, hardIron: Vector3, softIron: Matrix3) {
        self.name = name; self.hardIron = hardIron; self.softIron = softIron
    }

    public func apply(_ m: Vector3) -> Vector3 { softIron * m + hardIron }

    /// Three distortions of the size a headset's speakers and screws give: about 30 µT of hard iron in
    /// different directions, axis gains ±20 % and cross terms up to 0.12.
    public static let standard: [MagnetometerDistortion] = [
        MagnetometerDistortion(name: "A", hardIron: Vector3(26, -12, 8),
                               softIron: Matrix3(rows: Vector3(1.20, 0.10, 0.05), Vector3(0.10, 0.85, -0.08),
                                                 Vector3(0.05, -0.08, 1.00))),
        MagnetometerDistortion(name: "B", hardIron: Vector3(-18, 21, -11),
                               softIron: Matrix3(rows: Vector3(0.80, -0.12, 0.07), Vector3(-0.12, 1.15, 0.10),
                                                 Vector3(0.07, 0.10, 1.10))),
        MagnetometerDistortion(name: "C", hardIron: Vector3(5, -9, 30),
                               softIron: Matrix3(rows: Vector3(1.10, 0.05, -0.10), Vector3(0.05, 1.20, 0.12),
                                                 Vector3(-0.10, 0.12, 0.80))),
    ]

    /// `count` random distortions of the same size as `standard`: 30 µT of hard iron in a random direction,
    /// axis gains uniform in ±20 %, symmetric cross terms uniform in ±0.12. Reproducible from `seed`.
    public static func random(count: Int, seed: UInt64) -> [MagnetometerDistortion] {
        var rng = SeededRandom(seed: seed)
        func u(_ half: Double) -> Double { (rng.uniform() * 2 - 1) * half }
        return (0..<Swift.max(0, Swift.min(count, 1000))).map { i in
            var h = Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian())
            h = h / Swift.max(h.length, 1e-9) * 30
            let xy = u(0.12), xz = u(0.12), yz = u(0.12)
            let soft = Matrix3(rows: Vector3(1 + u(0.2), xy, xz), Vector3(xy, 1 + u(0.2), yz), Vector3(xz, yz, 1 + u(0.2)))
            return MagnetometerDistortion(name: "r\(i + 1)", hardIron: h, softIron: soft)
        }
    }

    /// The trace with every magnetometer sample from `start` on distorted (an iron that appears mid-trial when
    /// `start` is inside it); everything else (truth included) unchanged.
    public func applied(to trace: Trace, from start: Double = -.infinity) -> Trace {
        var out = trace
        for i in out.records.indices where out.records[i].t >= start {
            if let m = out.records[i].mag { out.records[i].mag = apply(m) }
        }
        return out
    }
}

/// `headtrack calibrate --trace` and `replay --calibration` as one measurement: calibrate from a recording
/// with the guided session's stop rule, then score the heading with and without the calibration.
public enum CalibrationEvaluation {
    public struct Calibrated: Sendable {
        public var calibration: Calibration?
        public var fit: EllipsoidFit.Result?
        /// Why the fit was refused, when it was.
        public var failure: EllipsoidFit.Failure?
        /// Trace time at which the stop rule was satisfied (nil: never, the whole trace was used).
        public var completedAt: Double?
    }

    /// Runs the calibration session over the trace's samples (magnetometer only: no still phase), stopping
    /// where the stop rule is satisfied, exactly as `headtrack calibrate --trace --skip-gyro`.
    public static func calibrate(_ trace: Trace, settings base: CalibrationSession.Settings = .init()) -> Calibrated {
        var settings = base
        settings.measureGyro = false
        var session = CalibrationSession(settings: settings)
        var completedAt: Double?
        for r in trace.records where session.phase != .complete {
            session.add(t: r.t, gyro: r.gyro, accel: r.accel, mag: r.mag)
            if session.phase == .complete { completedAt = r.t }
        }
        do {
            let (calibration, fit) = try session.result()
            return Calibrated(calibration: calibration, fit: fit, failure: nil, completedAt: completedAt)
        } catch {
            return Calibrated(calibration: nil, fit: nil, failure: error, completedAt: completedAt)
        }
    }

    public struct Row: Sendable {
        public var trial: String
        /// "none" for the recording as it is, else the distortion's name.
        public var distortion: String
        /// Heading RMSE (°) of the recording as it is, without calibration.
        public var cleanHeading: Double
        /// Heading RMSE (°) of the distorted recording without calibration (equal to `cleanHeading` for "none").
        public var uncalibratedHeading: Double
        /// Heading RMSE (°) with the calibration made from this (distorted) recording; nil when refused.
        public var calibratedHeading: Double?
        public var calibrated: Calibrated
    }

    /// The recording as it is, then under each distortion: calibrate, replay, score.
    public static func rows(trace: Trace, name: String, distortions: [MagnetometerDistortion]) -> [Row] {
        let clean = heading(trace, .none)
        var rows: [Row] = []
        let own = calibrate(trace)
        rows.append(Row(trial: name, distortion: "none", cleanHeading: clean, uncalibratedHeading: clean,
                        calibratedHeading: own.calibration.map { heading(trace, $0) }, calibrated: own))
        for d in distortions {
            let bent = d.applied(to: trace)
            let made = calibrate(bent)
            rows.append(Row(trial: name, distortion: d.name, cleanHeading: clean, uncalibratedHeading: heading(bent, .none),
                            calibratedHeading: made.calibration.map { heading(bent, $0) }, calibrated: made))
        }
        return rows
    }

    /// 9D heading RMSE (°) of the default filter run through the pipeline with `calibration` alone (the
    /// background calibration off: this measures what `calibrate --trace` made; `--background` measures that).
    public static func heading(_ trace: Trace, _ calibration: Calibration) -> Double {
        AttitudeEvaluation.evaluate(trace: trace, name: "", mode: .nineD, calibration: calibration,
                                    autoCalibration: false).rmse.headingDegrees
    }

    public static func table(_ rows: [Row]) -> String {
        let width = Swift.max(24, rows.map(\.trial.count).max() ?? 0)
        var s = "heading RMSE (°): clean recording / distorted, uncalibrated / distorted, calibrated from itself\n"
        s += pad("trial", width) + "  dist   clean  uncal    cal   Δ    stop s  field µT  error %  dirs %  verdict\n"
        for r in rows {
            s += pad(r.trial, width) + "  " + pad(r.distortion, 4)
            s += leftPad(fixed(r.cleanHeading, 2), 7) + leftPad(fixed(r.uncalibratedHeading, 2), 7)
            if let c = r.calibratedHeading {
                s += leftPad(fixed(c, 2), 7) + leftPad(fixed(c - r.cleanHeading, 2), 6)
            } else {
                s += leftPad("-", 7) + leftPad("-", 6)
            }
            s += leftPad(r.calibrated.completedAt.map { fixed($0, 1) } ?? "end", 9)
            if let f = r.calibrated.fit {
                s += leftPad(fixed(f.fieldStrength, 1), 10) + leftPad(fixed(f.relativeResidual * 100, 2), 9)
                s += leftPad(fixed(f.coverage * 100, 0), 8) + "  accepted\n"
            } else {
                s += leftPad("", 10) + leftPad("", 9) + leftPad("", 8) + "  refused: \(r.calibrated.failure.map { "\($0)" } ?? "")\n"
            }
        }
        let accepted = rows.filter { $0.distortion != "none" && $0.calibratedHeading != nil }
        let distorted = rows.filter { $0.distortion != "none" }
        if !accepted.isEmpty {
            let deltas = accepted.map { $0.calibratedHeading! - $0.cleanHeading }
            let mean = deltas.reduce(0, +) / Double(deltas.count)
            s += "distorted: \(accepted.count) of \(distorted.count) accepted; calibrated − clean heading RMSE: mean \(fixed(mean, 2))°, worst \(fixed(deltas.max()!, 2))°\n"
        }
        return s
    }

    private static func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
    private static func leftPad(_ s: String, _ n: Int) -> String { s.count >= n ? s : String(repeating: " ", count: n - s.count) + s }
}
