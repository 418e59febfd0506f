import EventStream
import Formats
/// How `run` logs sensor faults: the first failing sample of an episode is logged with its cause, the rest
/// are counted and summed up in one line when the episode ends. A loose connector fails up to every sample
/// (200 a second at the default rate); a line per sample would bury the journal and cost the loop a
/// formatted string each time. Episodes are the stream's and the status LED's (`FaultEpisode`, 0.5 s hold).
public struct FaultLog: Sendable {
    public struct Ended: Sendable, Equatable {
        /// Failing samples after the first, which were not logged one by one.
        public var repeats: Int
        /// From the first to the last failing sample (s).
        public var duration: Double
    }

    private var episode = FaultEpisode()
    private var began = 0.0
    private var repeats = 0

    public init() {}

    /// A failing sample at `t`; true when it begins an episode and so should be logged.
    public mutating func fault(t: Double) -> Bool {
        if episode.fault(t: t) {
            began = t
            repeats = 0
            return true
        }
        repeats += 1
        return false
    }

    /// Loop time passes (each display tick); the summary of an episode that ended at `t`, else nil.
    public mutating func tick(t: Double) -> Ended? {
        guard episode.tick(t: t) else { return nil }
        return Ended(repeats: repeats, duration: episode.lastFault - began)
    }

    /// The journal line `event` calls for, if any: a fault when its episode begins, a chip found reset (a power
    /// glitch) also once per episode, since a chip that stays reset is re-initialised at every health check,
    /// and the end of an episode with the count of failing samples not logged one by one.
    public mutating func warning(for event: LoopEvent) -> String? {
        switch event {
        case let .fault(t, error):
            return fault(t: t) ? "t=\(fixed(t, 2))s fault: \(error)" : nil
        case let .reinitialized(t):
            return fault(t: t) ? "t=\(fixed(t, 2))s a sensor had lost its configuration (power glitch?): re-initialised" : nil
        case let .display(t, _):
            guard let ended = tick(t: t) else { return nil }
            return "t=\(fixed(t, 2))s fault over after \(fixed(ended.duration, 2)) s"
                + (ended.repeats > 0 ? "; \(ended.repeats) more failing samples (counted in the summary)" : "")
        case .imu, .gesture:
            return nil
        }
    }
}
