import Geometry
import Formats
import Cohorts

/// `eval gestures --cohort N --export DIR`: the cohort's trials written as imu-trace v1 recordings with their
/// truth, so that the instruments that measure the shared recordings (`eval gestures DIR --mount trace`,
/// `replay --explain`, `scripts/out-and-backs.py`) measure the cohort the same way. A row of the cohort is
/// only as good as its agreement with real people, and that is judged best with one ruler for both.
public struct GestureCohortExport: Sendable {
    public var cohort: GestureCohort

    public init(cohort: GestureCohort) { self.cohort = cohort }

    /// The file name of a trial: `cohort_s<seed>_w<wearer>_<kind>.csv`, the kind's words joined by `_`, so that
    /// `eval gestures` reads the kind as the recording's activity (the words after the last part with a digit).
    public func fileName(wearer: Int, kind: CohortKind) -> String {
        "cohort_s\(cohort.seed)_w\(threeDigits(wearer))_\(Self.slug(kind)).csv"
    }

    /// A kind's words, lower case, joined by `_` ("walking, looking about" → `walking_looking_about`).
    public static func slug(_ kind: CohortKind) -> String {
        var words: [String] = [], word = ""
        for c in kind.rawValue.lowercased() {
            if c.isLetter || c.isNumber { word.append(c) } else if !word.isEmpty { words.append(word); word = "" }
        }
        if !word.isEmpty { words.append(word) }
        return words.joined(separator: "_")
    }

    /// The recording of one trial, as `TraceFile` reads it: its mount line names the board's mount (the board
    /// is worn up to 10° askew of it, as a real headset is).
    public func traceText(_ trial: CohortTrial) -> String {
        let metadata: [(String, String)] = [
            ("source", "headtrack synthetic gesture cohort (eval gestures --cohort \(cohort.wearers) --seed \(cohort.seed)"
                + (cohort.devices == .earbud ? " --earbud" : "") + "), wearer \(trial.wearer), \(trial.kind.rawValue)"),
            ("rate_hz", "\(trial.rateHz)"),
            ("units", "t s, acc m/s^2, gyr rad/s"),
            ("frame", "sensor axes; the board sits on the head as the mount line says, worn up to 10 deg askew"),
            ("mount", trial.mount.description),
            ("kind", trial.kind.rawValue),
        ]
        // The magnetometer columns stay empty ("not measured"), as in any recording made without one.
        var text = TraceFile.header(metadata: metadata, withMagnetometer: true)
        text.reserveCapacity(text.utf8.count + trial.t.count * 64)
        for i in trial.t.indices {
            text += TraceFile.row(t: trial.t[i], accel: trial.accel[i], gyro: trial.gyro[i], mag: nil)
        }
        return text
    }

    /// The truth beside the recording: the gesture as one bout (its first swing's start to its last swing's
    /// end), none for a distractor.
    public func truthText(_ trial: CohortTrial) -> String {
        guard let g = trial.gesture else { return "{\"events\": []}\n" }
        return "{\"events\": [{\"label\": \"\(g.label)\", \"t_start\": \(fixed(g.start, 3)), \"t_end\": \(fixed(g.end, 3)), "
            + "\"cycles\": \(fixed(Double(g.swings) / 2, 1))}]}\n"
    }

    /// Writes every wearer's trial of each kind into `directory` (which must exist), each file atomically;
    /// returns the paths of the recordings written. `progress` is told each kind as it begins.
    public func write(kinds: [CohortKind], to directory: String,
                      progress: (CohortKind) -> Void = { _ in }) throws(FileError) -> [String] {
        var written: [String] = []
        for kind in kinds {
            progress(kind)
            for w in 0..<cohort.wearers {
                let trial = cohort.trial(wearer: w, kind: kind)
                let path = directory + "/" + fileName(wearer: w, kind: kind)
                try FileIO.writeAtomically(path, Array(traceText(trial).utf8))
                try FileIO.writeAtomically(GestureTruth.path(forTrace: path), Array(truthText(trial).utf8))
                written.append(path)
            }
        }
        return written
    }
}

/// A wearer number as three digits at least (`7` → `007`), so that the files sort by wearer.
private func threeDigits(_ n: Int) -> String {
    let digits = String(n)
    return String(repeating: "0", count: max(0, 3 - digits.count)) + digits
}
