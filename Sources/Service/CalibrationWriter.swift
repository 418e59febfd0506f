import LibC
import SensorCalibration
import Formats

/// Saves the calibration the background calibration learned, on a thread of its own: the loop thread only
/// copies the value into a slot made here (a `Calibration` is plain numbers: no allocation) under a lock it
/// never waits for (`pthread_mutex_trylock`), and this thread encodes it and writes it atomically
/// (`CalibrationStore.save`: temporary file, fsync, rename, the old file kept as `.previous`), so a kill at
/// any moment leaves the old file or the new one. Saves are at most one per `minimumInterval` (the latest
/// value wins); `finish` writes what is still waiting and joins the thread.
public final class CalibrationWriter: @unchecked Sendable {
    public let store: CalibrationStore
    /// Seconds between two saves at least: a fit is learned every few seconds at first, and the card the
    /// state lives on should not be written that often.
    public let minimumInterval: Double
    private let warn: @Sendable (String) -> Void
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let wake: UnsafeMutablePointer<pthread_cond_t>
    // Guarded by `mutex`.
    private var slot = Calibration.none
    private var pending = false
    private var stopping = false
    private var savedCount = 0
    private var thread = pthread_t()
    private var started = false

    public init(path: String, minimumInterval: Double = 30, warn: @escaping @Sendable (String) -> Void) {
        store = CalibrationStore(path: path)
        self.minimumInterval = minimumInterval
        self.warn = warn
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        wake = .allocate(capacity: 1)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(wake, &attributes)
        pthread_condattr_destroy(&attributes)
        let context = Unmanaged.passRetained(self).toOpaque()
        started = pthread_create(&thread, nil, { context in
            let writer = Unmanaged<CalibrationWriter>.fromOpaque(context!).takeRetainedValue()
            writer.serve()
            return nil
        }, context) == 0
        if !started {
            Unmanaged<CalibrationWriter>.fromOpaque(context).release()
            warn("headtrack: cannot start the thread that saves learned calibrations: they will not be kept")
        }
    }

    deinit {
        pthread_cond_destroy(wake)
        pthread_mutex_destroy(mutex)
        wake.deallocate()
        mutex.deallocate()
    }

    /// From the loop thread: hands `calibration` over without waiting. False when the writer held the lock
    /// at this instant (it copies for a few microseconds): offer it again on a later tick.
    public func offer(_ calibration: Calibration) -> Bool {
        guard started, pthread_mutex_trylock(mutex) == 0 else { return false }
        slot = calibration
        pending = true
        pthread_cond_signal(wake)
        pthread_mutex_unlock(mutex)
        return true
    }

    /// Saves made so far.
    public var saves: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return savedCount
    }

    /// Writes what is waiting (at once, whatever the interval) and ends the thread. Off the loop, at the end,
    /// `last` (when given) is handed over first, waiting for the lock: a loop's final offer that found the lock
    /// busy is not lost, and nobody spins on `offer` for it.
    public func finish(saving last: Calibration? = nil) {
        guard started else { return }
        pthread_mutex_lock(mutex)
        if let last {
            slot = last
            pending = true
        }
        stopping = true
        pthread_cond_signal(wake)
        pthread_mutex_unlock(mutex)
        pthread_join(thread, nil)
        started = false
    }

    private func serve() {
        var lastSave = -Double.infinity
        pthread_mutex_lock(mutex)
        while true {
            while !pending && !stopping { pthread_cond_wait(wake, mutex) }
            if !pending { break }
            // Rate limit: wait out the interval (a stop cuts it short), taking the latest value after it.
            let due = lastSave + minimumInterval
            while !stopping && monotonicSeconds() < due {
                var deadline = timespec(tv_sec: Int(due), tv_nsec: Int((due - due.rounded(.down)) * 1e9))
                _ = pthread_cond_timedwait(wake, mutex, &deadline)
            }
            var calibration = slot
            pending = false
            pthread_mutex_unlock(mutex)
            calibration.createdUnixTime = Double(time(nil))
            var saved = true
            do { try store.save(calibration) } catch {
                saved = false
                warn("headtrack: could not save the learned calibration: \(error)")
            }
            lastSave = monotonicSeconds()
            pthread_mutex_lock(mutex)
            if saved { savedCount += 1 }
        }
        pthread_mutex_unlock(mutex)
    }

    private func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
    }
}
