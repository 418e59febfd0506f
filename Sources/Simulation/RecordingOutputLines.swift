import Hardware

/// Simulated GPIO outputs that record every change with its simulated time: the LED timeline.
public final class RecordingOutputLines: OutputLines {
    public let count: Int
    public var name: String { "\(count) simulated LED lines" }
    public let clock: VirtualClock
    public private(set) var value: UInt64 = 0
    /// (time s, mask) at every change, starting with the initial all-off state.
    public private(set) var timeline: [(t: Double, mask: UInt64)] = [(0, 0)]

    public init(count: Int, clock: VirtualClock) {
        self.count = count
        self.clock = clock
        timeline.reserveCapacity(4096)
    }

    public func set(_ values: UInt64) throws(GPIOError) {
        if values == value { return }
        value = values
        timeline.append((clock.seconds, values))
    }

    /// Intervals (start, end) during which line `index` was on.
    public func onIntervals(line index: Int, until end: Double) -> [(start: Double, end: Double)] {
        var result: [(Double, Double)] = []
        var onSince: Double? = nil
        for (t, mask) in timeline {
            let on = mask & (1 << UInt64(index)) != 0
            if on && onSince == nil { onSince = t }
            if !on, let s = onSince { result.append((s, t)); onSince = nil }
        }
        if let s = onSince { result.append((s, end)) }
        return result
    }
}
