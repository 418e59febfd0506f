import Geometry
import SensorCalibration
import Tracking
import Formats

/// The background calibration as `calibration` lines (protocol 1, docs/protocol.md), once a second and at once when
/// the correction in use changes: the same fields as the guided session's lines (`CalibrationFeed`), so the
/// live view draws either, with `phase` "background" and what only the background calibration has (`state`,
/// `source`, the correction `in_use`, the latest `field_error`, samples `refused` by the gyro test, samples
/// per region). Formatted into a buffer made here, like every stream line; droppable like state lines, and only
/// for the clients that have not unsubscribed from calibration lines.
final class BackgroundCalibrationFeed {
    static let period = 1.0
    /// Newest kept samples a line carries at most (the view draws them on the sphere).
    static let maximumPointsPerLine = 64

    private let line = LineBuffer(capacity: 8192)
    private var next = -Double.infinity
    private var revision = -1
    /// Number of the first kept sample not yet sent.
    private var sent = 0

    func publish(_ pipeline: Pipeline, t: Double, to server: StreamServer) {
        let learner = pipeline.autoCalibration
        let changed = (learner?.revision ?? 0) != revision
        guard changed || t >= next || t < next - 2 * BackgroundCalibrationFeed.period else { return }
        next = t + BackgroundCalibrationFeed.period
        revision = learner?.revision ?? 0
        format(pipeline, learner, t: t)
        server.broadcast(line, kind: .calibration, t: t)
    }

    /// The line's text (for tests).
    var text: String { line.text }

    func format(_ pipeline: Pipeline, _ learner: MagnetometerAutoCalibration?, t: Double) {
        let inUse = pipeline.calibrationInUse
        line.reset()
        line.literal("{\"type\":\"calibration\",\"t\":")
        line.fixed(t, 3)
        line.literal(",\"phase\":\"background\",\"state\":")
        switch learner?.state {
        case nil: line.literal("\"off\"")
        case .learning?: line.literal("\"learning\"")
        case .calibrated?: line.literal("\"calibrated\"")
        }
        line.literal(",\"source\":")
        switch learner?.source {
        case .learned?: line.literal("\"learned\"")
        case .file?: line.literal("\"file\"")
        case .uncalibrated?: line.literal("\"none\"")
        case nil: line.literal(inUse.magnetometer == .identity ? "\"none\"" : "\"file\"")
        }
        progress(learner, inUse)
        let stored = learner?.storedSamples ?? 0
        line.literal(",\"kept\":")
        line.integer(Int64(stored))
        line.literal(",\"seen\":")
        line.integer(Int64(learner?.observedSamples ?? 0))
        // The newest kept samples since the last line (older ones not sent are left out: the view counts them).
        let newest = learner?.nextSampleNumber ?? 0
        if sent > newest { sent = 0 }
        sent = Swift.max(sent, newest - BackgroundCalibrationFeed.maximumPointsPerLine)
        line.literal(",\"first\":")
        line.integer(Int64(sent))
        line.literal(",\"points\":[")
        var first = true
        learner?.forEachStoredSample(numbered: sent..<newest) { p in
            if !first { line.byte(UInt8(ascii: ",")) }
            first = false
            line.vector(p, 2)
        }
        sent = newest
        line.literal("],\"fit\":")
        if let fit = learner?.latestFit, let l = learner {
            line.fitFields(fit.correction, fieldStrength: fit.fieldStrength, residual: fit.relativeResidual,
                           inliers: fit.inlierFraction, coverage: fit.coverage, spread: fit.spread, samples: fit.samples)
            line.literal(",\"cells\":[")
            for i in 0..<SphereCoverage.cellCount {
                if i > 0 { line.byte(UInt8(ascii: ",")) }
                line.integer(Int64(l.storedSamples(inCell: i)))
            }
            line.literal("]}")
        } else {
            line.literal("null")
        }
        line.literal(",\"in_use\":{")
        line.correctionFields(inUse.magnetometer)
        line.literal(",\"field_ut\":")
        if let q = inUse.magnetometerFit { line.fixed(q.fieldStrength, 2) } else { line.literal("null") }
        line.literal(",\"residual\":")
        if let q = inUse.magnetometerFit { line.fixed(q.relativeResidual, 4) } else { line.literal("null") }
        line.literal(",\"coverage\":")
        if let q = inUse.magnetometerFit { line.fixed(q.coverage, 4) } else { line.literal("null") }
        line.literal("},\"field_error\":")
        if let j = learner?.latestJudgement { line.fixed(j.current, 4) } else { line.literal("null") }
        line.literal(",\"refused\":")
        line.integer(Int64(learner?.refusedSamples ?? 0))
        line.literal(",\"per_region\":")
        line.integer(Int64(learner?.settings.slotsPerCell ?? 0))
        line.needAndGrid(learner?.settings.acceptance ?? MagnetometerAutoCalibration.Settings().acceptance)
        line.literal("}\n")
    }

    /// What the terminal would say, from literals and numbers only (no String is built on the loop thread).
    private func progress(_ learner: MagnetometerAutoCalibration?, _ inUse: Calibration) {
        line.literal(",\"progress\":\"")
        guard let l = learner else {
            line.literal(inUse.magnetometer == .identity ? "background calibration off; no calibration file"
                                                          : "background calibration off; the calibration file is used")
            line.byte(UInt8(ascii: "\""))
            return
        }
        switch l.state {
        case .calibrated: line.literal("calibrated")
        case .learning: line.literal("learning: turn your head about")
        }
        if let q = l.quality {
            line.literal("; in use: fit error ")
            line.fixed(q.relativeResidual * 100, 1)
            line.literal(" %, ")
            line.fixed(q.coverage * 100, 0)
            line.literal(" % of directions")
        }
        line.byte(UInt8(ascii: "\""))
    }
}
