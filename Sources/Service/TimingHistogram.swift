import Formats
/// A histogram of durations in nanoseconds with fixed storage, for timing inside the loop: recording is a
/// few integer operations and never allocates. Buckets are log-linear (16 per power of two), so any
/// percentile it reports is within about 3 % of the true value; minimum, maximum and mean are exact.
public struct TimingHistogram: Sendable {
    /// Sub-buckets per power of two: 2^4 = 16, i.e. a relative bucket width of at most 1/16.
    static let subBucketBits = 4
    static let subBuckets = 1 << subBucketBits
    /// Up to 2^40 ns (18 minutes): more than any stage or wake-up delay worth recording.
    static let bucketCount = (40 - subBucketBits + 1) * subBuckets

    private var counts: [Int64]
    public private(set) var count: Int64 = 0
    public private(set) var sum: Int64 = 0
    public private(set) var minimum = Int64.max
    public private(set) var maximum = Int64.min

    /// Allocates the bucket storage once; `record` never allocates afterwards.
    public init() {
        counts = [Int64](repeating: 0, count: TimingHistogram.bucketCount)
    }

    static func bucket(_ value: Int64) -> Int {
        let v = UInt64(max(0, value))
        if v < UInt64(subBuckets) { return Int(v) }
        let exponent = 63 - v.leadingZeroBitCount  // ≥ subBucketBits
        let shift = exponent - subBucketBits
        let mantissa = Int(v >> UInt64(shift)) & (subBuckets - 1)
        return min(bucketCount - 1, (shift + 1) * subBuckets + mantissa)
    }

    /// Lower bound and width of bucket `index`.
    static func range(_ index: Int) -> (low: Int64, width: Int64) {
        if index < subBuckets { return (Int64(index), 1) }
        let shift = index / subBuckets - 1
        let mantissa = index % subBuckets
        return (Int64(subBuckets + mantissa) << Int64(shift), Int64(1) << Int64(shift))
    }

    /// Records one value (negative values count as 0).
    @inline(__always)
    public mutating func record(_ value: Int64) {
        let v = max(0, value)
        counts[TimingHistogram.bucket(v)] &+= 1
        count &+= 1
        sum &+= v
        if v < minimum { minimum = v }
        if v > maximum { maximum = v }
    }

    public mutating func record(_ values: UnsafeBufferPointer<Int64>) {
        for v in values { record(v) }
    }

    public mutating func merge(_ other: TimingHistogram) {
        for i in counts.indices { counts[i] += other.counts[i] }
        count += other.count
        sum += other.sum
        minimum = min(minimum, other.minimum)
        maximum = max(maximum, other.maximum)
    }

    public mutating func reset() { self = TimingHistogram() }

    public var mean: Double { count > 0 ? Double(sum) / Double(count) : .nan }

    /// The value below which a fraction `p` (0...1) of the recorded values lie: the middle of the bucket
    /// holding that rank, clamped to the exact minimum and maximum.
    public func percentile(_ p: Double) -> Int64 {
        guard count > 0 else { return 0 }
        if p >= 1 { return maximum }
        let rank = max(1, Int64((p * Double(count)).rounded(.up)))
        var seen: Int64 = 0
        for i in counts.indices {
            seen += counts[i]
            if seen >= rank {
                let (low, width) = TimingHistogram.range(i)
                return min(maximum, max(minimum, low + (width - 1) / 2))
            }
        }
        return maximum
    }
}
