import Hardware

/// Sample times from the sensor's own clock: sample k of a FIFO run is stamped `first + k × period`, so the
/// host's wake-up jitter never reaches the filter. The host clock only keeps the two time lines together:
/// each FIFO count read between host times `before` and `after` bounds the newest waiting sample to
/// (before − period, after]; when the stamps leave that window (a wrong start estimate, or the sensor's
/// oscillator running off nominal) the time line is shifted by the smallest amount that fits it again.
/// The spacing stays exactly one period, and stamps never go backwards.
public struct FifoSampleClock: Sendable {
    public let period: Nanoseconds
    /// Time of sample 0 of this time line.
    public private(set) var origin: Nanoseconds
    /// Index of the next sample to stamp.
    public private(set) var nextIndex: Int64 = 0
    /// How often the bounds moved the time line, and how many samples a FIFO reset threw away.
    public private(set) var adjustments: Int64 = 0
    public private(set) var samplesLost: Int64 = 0
    public private(set) var lastStamp = Nanoseconds.min

    public init(period: Nanoseconds, firstSampleAt: Nanoseconds) {
        self.period = max(1, period)
        origin = firstSampleAt
    }

    public func time(ofSample index: Int64) -> Nanoseconds { origin + index * period }

    /// The stamp for the next sample read from the FIFO.
    @inline(__always)
    public mutating func stampNext() -> Nanoseconds {
        let t = time(ofSample: nextIndex)
        nextIndex += 1
        lastStamp = t
        return t
    }

    /// The FIFO count, read between `before` and `after`, showed `available` samples not stamped yet.
    public mutating func observe(available: Int, before: Nanoseconds, after: Nanoseconds) {
        let newest = nextIndex + Int64(available) - 1  // nextIndex − 1 when none is waiting
        let t = time(ofSample: newest)
        var shift: Nanoseconds = 0
        if available > 0 && t > after {
            shift = after - t  // a sample cannot come from the future
        } else if t + period <= before {
            shift = before - period - t + 1  // the next sample would already exist
        }
        if shift == 0 { return }
        // Never stamp a sample at or before the previous one.
        if lastStamp != Nanoseconds.min { shift = max(shift, lastStamp + 1 - time(ofSample: nextIndex)) }
        origin += shift
        adjustments += 1
    }

    /// The FIFO was reset at some moment before `after`: the chip's sample clock runs on, so the first
    /// sample of the new FIFO content is the first one due after the reset; the ones in between are lost.
    public mutating func restartAfterReset(at after: Nanoseconds) {
        let elapsed = after - origin
        let next = elapsed < 0 ? 0 : elapsed / period + 1
        if next > nextIndex {
            samplesLost += next - nextIndex
            nextIndex = next
        }
    }
}
