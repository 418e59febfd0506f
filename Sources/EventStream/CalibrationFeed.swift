import Formats
import Geometry
import SensorCalibration

/// The magnetometer calibration's progress as `calibration` lines on the event stream (protocol 1, docs/protocol.md):
/// the samples kept since the previous line, the latest fit with its coverage cells, and the phase, so the live
/// view can draw the sphere filling up. A few lines a second; formatted into one preallocated buffer like every
/// other stream line, and droppable like state lines (the next line carries the whole fit again).
public final class CalibrationFeed {
    /// Lines per second while calibrating (the terminal's progress line is redrawn as often).
    public static let linesPerSecond = 5.0
    /// Samples carried by one line at most; the rest follow in the next ones. 64 × ~26 bytes fits the buffer
    /// with room, and a turn keeps at most ~30 samples a second (one per 3 µT of field change at 100 Hz).
    public static let maximumPointsPerLine = 64

    /// How a calibration ended, for the last line.
    public enum Outcome: Sendable, Equatable {
        case saved(String)
        case refused(String)
    }

    private let line = LineBuffer(capacity: 8192)
    /// Index of the first kept sample not yet sent.
    public private(set) var sent = 0
    private var lastLine = -Double.infinity

    public init() {}

    /// Sends a line when one is due (or `force`); returns whether it did.
    @discardableResult
    public func publish(_ session: CalibrationSession, t: Double, to stream: EventStream, force: Bool = false) -> Bool {
        guard force || t - lastLine >= 1 / CalibrationFeed.linesPerSecond || t < lastLine else { return false }
        lastLine = t
        format(session, t: t, phase: CalibrationFeed.phaseName(session.phase), progress: session.progressText(at: t))
        stream.server.broadcast(line, kind: .calibration, t: t)
        return true
    }

    /// The last line: saved or refused, with what the terminal says about it. Must arrive, so it is not droppable
    /// (but a client that unsubscribed from calibration lines does not get it either).
    public func finish(_ session: CalibrationSession, t: Double, outcome: Outcome, to stream: EventStream) {
        switch outcome {
        case let .saved(text): format(session, t: t, phase: "saved", progress: text)
        case let .refused(text): format(session, t: t, phase: "refused", progress: text)
        }
        stream.server.broadcast(line, kind: .calibrationResult, t: t)
    }

    static func phaseName(_ phase: CalibrationSession.Phase) -> StaticString {
        switch phase {
        case .keepStill: return "keep_still"
        case .turn: return "turn"
        case .complete: return "complete"
        }
    }

    /// The line's text (for tests).
    var text: String { line.text }

    func format(_ session: CalibrationSession, t: Double, phase: StaticString, progress: String) {
        let rule = session.stopRule
        let samples = rule.samples
        if sent > samples.count { sent = 0 }  // a new session on the same feed
        let end = Swift.min(samples.count, sent + CalibrationFeed.maximumPointsPerLine)
        line.reset()
        line.literal("{\"type\":\"calibration\",\"t\":")
        line.fixed(t, 3)
        line.literal(",\"phase\":")
        line.string(phase)
        line.literal(",\"progress\":")
        line.string(progress)
        line.literal(",\"kept\":")
        line.integer(Int64(samples.count))
        line.literal(",\"seen\":")
        line.integer(Int64(rule.magnetometerSamplesSeen))
        line.literal(",\"first\":")
        line.integer(Int64(sent))
        line.literal(",\"points\":[")
        for i in sent..<end {
            if i > sent { line.byte(UInt8(ascii: ",")) }
            line.vector(samples[i], 2)
        }
        line.literal("],\"fit\":")
        if let fit = rule.latest { self.fit(fit) } else { line.literal("null") }
        line.needAndGrid(rule.settings.stopCriteria)
        line.literal("}\n")
        // Only samples that made it onto the wire count as sent: an overflowing line is dropped whole.
        if !line.overflowed { sent = end }
    }

    private func fit(_ fit: EllipsoidFit.Result) {
        line.fitFields(fit.correction, fieldStrength: fit.fieldStrength, residual: fit.relativeResidual,
                       inliers: fit.inlierFraction, coverage: fit.coverage, spread: fit.spread, samples: fit.samples)
        line.literal(",\"cells\":[")
        for (i, n) in fit.cells.counts.enumerated() {
            if i > 0 { line.byte(UInt8(ascii: ",")) }
            line.integer(Int64(n))
        }
        line.literal("]}")
    }
}
