import Geometry

/// The magnetometer samples the background calibration learns from, in storage allocated once: a fixed
/// number of slots for each `SphereCoverage` region (by the direction of the field as the best correction so
/// far sees it), each region keeping its newest samples. A head that looks ahead for an hour then keeps
/// its one look at the ceiling, instead of pushing it out as a plain ring of recent samples would.
///
/// Each sample carries the sensor's attitude in the gyro-and-gravity frame (`level`: tilt from gravity,
/// heading from the gyro alone, never from the magnetometer) and a sequence number: the fit uses the samples
/// numbered before it started, and judges its result on the ones that came in after, which it has not seen.
struct CalibrationSamples: Sendable {
    struct Sample: Sendable {
        var field: Vector3
        var level: Quaternion
        /// −1: an empty slot.
        var sequence: Int
    }

    let slotsPerCell: Int
    private(set) var slots: [Sample]
    /// Per region, the slot its next sample overwrites.
    private var cursors: [Int]
    /// The number the next sample gets.
    private(set) var nextSequence = 0
    /// Samples numbered below this no longer count (set when the iron changed: they were of the old one).
    private(set) var epoch = 0

    init(slotsPerCell: Int) {
        self.slotsPerCell = Swift.max(1, Swift.min(slotsPerCell, 64))
        slots = [Sample](repeating: Sample(field: .zero, level: .identity, sequence: -1),
                         count: SphereCoverage.cellCount * self.slotsPerCell)
        cursors = [Int](repeating: 0, count: SphereCoverage.cellCount)
    }

    var capacity: Int { slots.count }

    /// Whether slot `i` holds a sample that counts.
    @inline(__always) func isCurrent(_ i: Int) -> Bool { slots[i].sequence >= epoch }

    /// Stores a sample in region `cell`, over that region's oldest.
    mutating func add(field: Vector3, level: Quaternion, cell: Int) {
        let c = Swift.max(0, Swift.min(SphereCoverage.cellCount - 1, cell))
        let slot = c * slotsPerCell + cursors[c]
        cursors[c] = (cursors[c] + 1) % slotsPerCell
        slots[slot] = Sample(field: field, level: level, sequence: nextSequence)
        nextSequence += 1
    }

    /// Samples numbered from `first` on count, the rest no longer do.
    mutating func forget(before first: Int) { epoch = Swift.max(epoch, first) }

    /// Samples that count in region `cell`.
    func count(inCell cell: Int) -> Int {
        var n = 0
        let start = cell * slotsPerCell
        for i in start..<(start + slotsPerCell) where isCurrent(i) { n += 1 }
        return n
    }

    /// Samples that count, numbered in `range`.
    func count(numbered range: Range<Int>) -> Int {
        var n = 0
        for s in slots where s.sequence >= epoch && range.contains(s.sequence) { n += 1 }
        return n
    }
}

/// How well a calibration explains samples that the gyro and gravity have put in one frame: the room's field
/// does not turn with the head, so each sample, corrected and turned into that frame, should be the same
/// vector. The score is the RMS distance from their mean relative to its length (0.03 for sensor noise and
/// tilt error; a 30 µT hard-iron error in a 45 µT field, about 0.5). A magnet passing the head, or the head
/// carried past steel, scatters them too, whatever the calibration: the field changed in the world.
struct FieldConsistency: Sendable {
    private var count = 0
    private var sum = Vector3.zero
    private var squares = 0.0

    @inline(__always) mutating func add(_ levelField: Vector3) {
        count += 1
        sum += levelField
        squares += levelField.dot(levelField)
    }

    var samples: Int { count }

    /// The mean of the fields added (nil before the first).
    var mean: Vector3? { count > 0 ? sum / Double(count) : nil }

    /// nil before two samples, or for a mean field of no length.
    var score: Double? {
        guard count >= 2 else { return nil }
        let mean = sum / Double(count)
        let meanSquare = mean.dot(mean)
        guard meanSquare > 0, meanSquare.isFinite else { return nil }
        return (Swift.max(0, squares / Double(count) - meanSquare) / meanSquare).squareRoot()
    }
}
