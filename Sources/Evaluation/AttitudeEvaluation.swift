import Fusion
import SensorCalibration
import Geometry
import Tracking

/// Whether the filter may use the magnetometer: 9D (accelerometer, gyroscope, magnetometer) or 6D (no
/// magnetometer; heading is then only known up to a constant and scored after removing it).
public enum AttitudeMode: String, Sendable, Codable, CaseIterable {
    case nineD = "9d"
    case sixD = "6d"
}

/// Which benchmark group a trial belongs to, from its file name (`*undisturbed*` before `*disturbed*`, since
/// the one contains the other).
public enum TrialGroup: String, Sendable, Codable, CaseIterable {
    case undisturbed
    case disturbed
    case other

    public init(trialName: String) {
        let lower = trialName.lowercased()
        if lower.contains("undisturbed") { self = .undisturbed }
        else if lower.contains("disturbed") { self = .disturbed }
        else { self = .other }
    }
}

public struct AttitudeTrialResult: Sendable, Equatable, Codable {
    public var name: String
    public var group: TrialGroup
    public var mode: AttitudeMode
    public var rmse: AttitudeRMSE
    /// 6D only: the constant heading offset (degrees) taken off before scoring.
    public var removedHeadingOffsetDegrees: Double?
}

public struct AttitudeGroupResult: Sendable, Equatable, Codable {
    public var group: TrialGroup
    public var trials: Int
    /// Plain means of the trials' RMSEs (degrees).
    public var meanTotalDegrees: Double
    public var meanHeadingDegrees: Double
    public var meanInclinationDegrees: Double
}

/// Runs the attitude filter causally over recorded traces and scores it against their truth.
public enum AttitudeEvaluation {
    /// The filter's attitude after each record, in record order. Causal: the estimate for record i uses records
    /// 0...i only. The filter state is reset where the `window` column changes (independent recordings).
    /// Runs the same `Pipeline` as `headtrack run` and `replay` (mount identity), so a `calibration` is applied
    /// to the raw samples exactly as on the board.
    /// `autoCalibration` false turns the background calibration off (`replay --no-auto-calibration`).
    public static func estimates(for trace: Trace, settings: AttitudeFilter.Settings,
                                 calibration: Calibration = .none, autoCalibration: Bool = true) -> [Quaternion] {
        var pipelineSettings = Pipeline.Settings()
        pipelineSettings.filter = settings
        pipelineSettings.calibration = calibration
        if !autoCalibration { pipelineSettings.autoCalibration = nil }
        var output: [Quaternion] = []
        output.reserveCapacity(trace.records.count)
        Replay.run(trace, settings: pipelineSettings) { event, pipeline in
            if case .sample = event { output.append(pipeline.attitude) }
        }
        return output
    }

    /// The estimates that count for the benchmark's error, beside their truths: the records with `moving == 1`
    /// and a truth quaternion, from `start` (s) on. Every attitude score (`evaluate`, the background
    /// calibration's runs, the disturbance leave-one-out) selects its samples here.
    public static func scored(_ estimates: [Quaternion], of trace: Trace, from start: Double = -.infinity)
        -> (estimated: [Quaternion], truths: [Quaternion]) {
        var estimated: [Quaternion] = [], truths: [Quaternion] = []
        for (record, q) in zip(trace.records, estimates) where record.moving == true && record.t >= start {
            guard let truth = record.truth else { continue }
            estimated.append(q)
            truths.append(truth)
        }
        return (estimated, truths)
    }

    /// Scores one trace: RMSE over the records with `moving == 1` and a truth quaternion.
    public static func evaluate(trace: Trace, name: String, mode: AttitudeMode,
                                settings base: AttitudeFilter.Settings = .default,
                                calibration: Calibration = .none, autoCalibration: Bool = true) -> AttitudeTrialResult {
        var settings = base
        settings.useMagnetometer = mode == .nineD
        let all = estimates(for: trace, settings: settings, calibration: calibration, autoCalibration: autoCalibration)
        let (estimated, truths) = scored(all, of: trace)
        let removeOffset = mode == .sixD
        let rmse = AttitudeScoring.rmse(estimates: estimated, truths: truths, removeHeadingOffset: removeOffset)
        var offset: Double?
        if removeOffset {
            let errors = zip(estimated, truths).map { AttitudeError.errorQuaternion(estimate: $0, truth: $1) }
            offset = AttitudeScoring.circularMeanHeading(errors) * Units.degreesPerRadian
        }
        return AttitudeTrialResult(name: name, group: TrialGroup(trialName: name), mode: mode, rmse: rmse,
                                   removedHeadingOffsetDegrees: offset)
    }

    /// Group figures: the plain mean of the trials' RMSEs, per group that has trials.
    public static func groups(_ results: [AttitudeTrialResult]) -> [AttitudeGroupResult] {
        TrialGroup.allCases.compactMap { group in
            let members = results.filter { $0.group == group }
            guard !members.isEmpty else { return nil }
            let n = Double(members.count)
            return AttitudeGroupResult(
                group: group, trials: members.count,
                meanTotalDegrees: members.map(\.rmse.totalDegrees).reduce(0, +) / n,
                meanHeadingDegrees: members.map(\.rmse.headingDegrees).reduce(0, +) / n,
                meanInclinationDegrees: members.map(\.rmse.inclinationDegrees).reduce(0, +) / n)
        }
    }

    /// Trial name from a path: the file name without directory and `.csv`.
    public static func trialName(path: String) -> String {
        var name = path.split(separator: "/").last.map(String.init) ?? path
        if name.hasSuffix(".csv") { name.removeLast(4) }
        return name
    }
}
