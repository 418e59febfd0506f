import LibC

/// One client's bounded output queue: whole JSON lines go in, a non-blocking `send` takes bytes out. The
/// storage is allocated once with the slot and reused by every client that later takes the slot.
///
/// Who gets room: state lines may only use the ring up to `capacity − reserve`, so the last `reserve` bytes
/// are kept for messages that must arrive (gesture, fault, hello, dropped). A state line that does not fit is
/// dropped and counted; the count goes out as a `dropped` line as soon as there is room again. A message that
/// must arrive and does not fit even into the reserve means the client has stopped reading: it is disconnected.
final class ClientRing {
    let capacity: Int
    let reserve: Int
    private let storage: UnsafeMutablePointer<UInt8>
    private var head = 0    // index of the oldest unsent byte
    private(set) var count = 0

    init(capacity: Int, reserve: Int) {
        precondition(capacity >= 1024 && capacity <= 16 << 20 && reserve >= 0 && reserve < capacity,
                     "client ring sizes out of range")
        self.capacity = capacity
        self.reserve = reserve
        storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    var free: Int { capacity - count }
    /// Room a droppable (state) line may use.
    var freeForDroppable: Int { max(0, free - reserve) }

    func clear() {
        head = 0
        count = 0
    }

    /// Copies `bytes` in whole; the caller has checked that they fit.
    func push(_ bytes: UnsafeBufferPointer<UInt8>) {
        precondition(bytes.count <= free)
        var tail = (head + count) % capacity
        var i = 0
        while i < bytes.count {
            let run = min(bytes.count - i, capacity - tail)
            (storage + tail).update(from: bytes.baseAddress! + i, count: run)
            i += run
            tail = (tail + run) % capacity
        }
        count += bytes.count
    }

    /// Sends what the socket takes without blocking. Returns the bytes sent, or nil when the peer is gone
    /// (EPIPE, ECONNRESET, or another error that will not heal).
    func drain(to fd: Int32) -> Int? {
        var sent = 0
        while count > 0 {
            let run = min(count, capacity - head)
            let n = send(fd, storage + head, run, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return sent }
                return nil
            }
            if n == 0 { return sent }
            head = (head + n) % capacity
            count -= n
            sent += n
            if n < run { return sent }  // the socket buffer is full
        }
        head = 0
        return sent
    }

    /// The queued bytes in order (for tests).
    func snapshot() -> [UInt8] {
        (0..<count).map { storage[(head + $0) % capacity] }
    }
}
