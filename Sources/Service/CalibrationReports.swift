import LibC
import SensorCalibration
import Tracking
import Formats

/// What the daemon does when the background calibration changes its mind, seen on the display ticks: one
/// journal line per change (a fit taken, the correction before taken back, the samples forgotten because the
/// field stopped fitting), the status line's compass part, and an established learned calibration handed to
/// the `CalibrationWriter`. The log line is formatted into a buffer made here and written with one write(2),
/// as gesture lines are; the status text is built only when it changes.
public struct CalibrationReports {
    private let writer: CalibrationWriter?
    private let line = LineBuffer(capacity: 256)
    private let quiet: Bool
    private var revision = 0
    private var forgettings = 0
    private var state: MagnetometerAutoCalibration.State? = nil
    private var unsaved: Calibration? = nil

    /// `writer` nil: nothing is saved (a simulated run, or the background calibration off).
    public init(writer: CalibrationWriter?, quiet: Bool) {
        self.writer = writer
        self.quiet = quiet
    }

    /// One display tick. Returns the new status text when the compass part changed.
    public mutating func tick(t: Double, pipeline: Pipeline, status: inout ServiceStatus) -> String? {
        if let c = unsaved, writer?.offer(c) == true { unsaved = nil }
        guard let learner = pipeline.autoCalibration else { return nil }
        let changed = learner.revision != revision, forgot = learner.forgettings != forgettings
        guard changed || forgot || learner.state != state else { return nil }
        if forgot && !quiet { log(t: t, forgotten: learner) }
        if changed && !quiet { log(t: t, learned: learner) }
        revision = learner.revision
        forgettings = learner.forgettings
        state = learner.state
        if changed && learner.source == .learned && learner.isEstablished {
            let c = pipeline.calibrationInUse
            if writer?.offer(c) == false { unsaved = c }
        }
        return status.compass(CalibrationReports.compassText(learner))
    }

    /// The status line's part: "compass calibrated (fit error 1.8 %, 52 % of directions)", "compass learning".
    public static func compassText(_ learner: MagnetometerAutoCalibration) -> String {
        let fit = learner.quality.map { "fit error \(fixed($0.relativeResidual * 100, 1)) %, \(fixed($0.coverage * 100, 0)) % of directions" }
        switch learner.state {
        case .calibrated: return "compass calibrated" + (fit.map { " (\($0))" } ?? " (from the calibration file)")
        case .learning: return "compass learning" + (fit.map { " (so far: \($0))" } ?? "")
        }
    }

    private func log(t: Double, learned l: MagnetometerAutoCalibration) {
        begin(t: t)
        if l.source == .learned, let q = l.quality {
            line.literal(l.isEstablished ? "learned hard and soft iron: fit error " : "learning: a fit of part of the sphere stands in: fit error ")
            line.fixed(q.relativeResidual * 100, 1)
            line.literal(" %, ")
            line.fixed(q.coverage * 100, 0)
            line.literal(" % of directions, field ")
            line.fixed(q.fieldStrength, 1)
            line.literal(" uT")
        } else {
            line.literal("back to the correction before, which explains the field again")
        }
        if let j = l.latestJudgement {
            line.literal(" (field error ")
            line.fixed(j.current * 100, 1)
            line.literal(" % before)")
        }
        end()
    }

    private func log(t: Double, forgotten l: MagnetometerAutoCalibration) {
        begin(t: t)
        line.literal("the field no longer fits the calibration (the iron changed, or a magnet is near): learning again from here")
        end()
    }

    private func begin(t: Double) {
        line.reset()
        if Log.toJournal { line.literal("<6>") }   // Priority.info
        line.literal("t=")
        line.fixed(t, 2)
        line.literal("s calibration: ")
    }

    private func end() {
        line.byte(UInt8(ascii: "\n"))
        guard !line.overflowed else { return }
        Console.write(STDOUT_FILENO, line.contents)
    }
}
