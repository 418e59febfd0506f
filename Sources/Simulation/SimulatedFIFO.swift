/// The sample FIFO of an InvenSense chip as the host sees it (RM-MPU-9250A-00 §4.36–4.37; hardware-facts
/// §1.0): a byte queue of fixed capacity (512 on the 6500/9250/9255, 1024 on the 6050/9150). When full, the
/// oldest bytes are dropped to make room (FIFO_MODE = 0), which breaks frame alignment, or the new frame is
/// dropped (FIFO_MODE = 1). Reading an empty FIFO returns the last byte read again. Reading FIFO_COUNTH
/// latches the count, so FIFO_COUNTL read next belongs to the same value.
public struct SimulatedFIFO: Sendable {
    public let capacity: Int
    private var storage: [UInt8]
    private var start = 0
    public private(set) var count = 0
    private var lastByte: UInt8 = 0
    private var latchedCount: Int? = nil
    /// Frames that made the FIFO drop data since it was created (for tests).
    public private(set) var overflowEvents = 0

    public init(capacity: Int) {
        self.capacity = capacity
        storage = [UInt8](repeating: 0, count: capacity)
    }

    /// Appends one frame. Returns true when data was dropped to make room (or the frame itself was dropped).
    mutating func push(_ bytes: UnsafeRawBufferPointer, dropNewWhenFull: Bool) -> Bool {
        var dropped = false
        if count + bytes.count > capacity {
            dropped = true
            overflowEvents += 1
            if dropNewWhenFull { return true }
            let excess = count + bytes.count - capacity
            start = (start + excess) % capacity
            count -= excess
        }
        for b in bytes {
            storage[(start + count) % capacity] = b
            count += 1
        }
        return dropped
    }

    mutating func pop() -> UInt8 {
        guard count > 0 else { return lastByte }
        lastByte = storage[start]
        start = (start + 1) % capacity
        count -= 1
        return lastByte
    }

    /// FIFO_COUNTH: latches the count and returns its high bits (the count is 13 bits wide).
    mutating func readCountHigh() -> UInt8 {
        latchedCount = count
        return UInt8((count >> 8) & 0x1F)
    }

    /// FIFO_COUNTL: the low byte of the latched count (or of the live count when nothing was latched).
    mutating func readCountLow() -> UInt8 {
        let c = latchedCount ?? count
        latchedCount = nil
        return UInt8(c & 0xFF)
    }

    mutating func reset() {
        start = 0
        count = 0
        latchedCount = nil
    }
}
