/// The measurement clock of a magnetometer in continuous mode, as the AKM and QST parts run it: measurement k
/// is taken at exactly k / rate on the simulation clock, and one that lands on data not yet read, or that
/// follows a skipped one, sets the data-overrun flag (DOR). The AKM parts (AK8963, AK09916) also protect the
/// data registers while a read is under way: a measurement that lands then waits until ST2 is read.
struct MagnetometerMeasurements {
    /// One measurement in the chip's own counts.
    struct Sample {
        var x: Int16, y: Int16, z: Int16
        var overflow: Bool
    }

    private var lastIndex: Int64 = -1
    private var latched = false
    private var pending: Sample? = nil

    /// Forgets the clock, a held measurement and the latch (power-on, soft reset).
    mutating func reset() { self = MagnetometerMeasurements() }

    /// A new mode or rate: the next access starts the count afresh.
    mutating func restartClock() { lastIndex = -1 }

    /// The time (s) of the measurement due at `now`, if a new one is, and whether it overruns: it lands while
    /// the previous one is still unread (`unread`), or one landed unread since the last access.
    mutating func due(now: Double, rate: Double, unread: Bool) -> (t: Double, overrun: Bool)? {
        let index = Int64((now * rate).rounded(.down))
        if index == lastIndex { return nil }
        let overrun = lastIndex >= 0 && (unread || index - lastIndex >= 2)
        lastIndex = index
        return (Double(index) / rate, overrun)
    }

    /// A new measurement: returned to be published now, or held while a read is under way.
    mutating func measured(_ sample: Sample) -> Sample? {
        if latched { pending = sample; return nil }
        pending = nil
        return sample
    }

    /// A data register was read: new measurements wait.
    mutating func dataRead() { latched = true }

    /// ST2 was read, which ends the read: the held measurement, if any, to publish now.
    mutating func readEnded() -> Sample? {
        latched = false
        defer { pending = nil }
        return pending
    }
}
