import EventStream
import SensorCalibration
import Service
import Tracking

/// `calibrate --socket PATH`: the event stream while calibrating, so `headtrack view` can draw the head and
/// the sphere of samples filling up. State lines as `run` sends them, `calibration` lines a few times a second,
/// and a last one that says whether the fit was saved or refused.
final class CalibrationBroadcast {
    let stream: EventStream
    private let feed = CalibrationFeed()
    private(set) var lastT = 0.0

    init(stream: EventStream) {
        self.stream = stream
        stream.sendsBackgroundCalibration = false   // this session's lines are the calibration lines here
    }

    /// A loop or replay event: state lines on display ticks, and the session's progress when due.
    func handle(_ event: LoopEvent, _ pipeline: Pipeline, session: CalibrationSession) {
        stream.handle(event, pipeline)
        if case let .imu(t, _, _) = event { progress(session, t: t) }
    }

    func progress(_ session: CalibrationSession, t: Double) {
        lastT = t
        feed.publish(session, t: t, to: stream)
    }

    /// Finishes the calibration with `finish` and tells the stream how it ended (`saved` when it was).
    func end(_ session: CalibrationSession, saved: String, finish: () throws -> Int32) throws -> Int32 {
        // Whatever samples are still unsent, so the page's sphere ends complete.
        while feed.sent < session.magSamples.count {
            let before = feed.sent
            feed.publish(session, t: lastT, to: stream, force: true)
            if feed.sent == before { break }
        }
        do {
            let status = try finish()
            feed.finish(session, t: lastT, outcome: .saved(saved), to: stream)
            return status
        } catch let error as CommandError {
            feed.finish(session, t: lastT, outcome: .refused(error.message), to: stream)
            throw error
        }
    }

    func stop() { stream.stop() }
}
