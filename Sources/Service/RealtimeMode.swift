import CRealtime
import Hardware
import Formats

/// Opt-in real-time treatment for the loop thread: SCHED_FIFO at a chosen priority (this thread only;
/// threads created later inherit it, so call this on the loop thread after the others exist), all memory
/// locked so no page fault lands in the loop, and optionally pinned to one CPU. Each step that the system
/// refuses is skipped with a reason; it never fails the program.
public struct RealtimeMode: Sendable, Equatable {
    /// SCHED_FIFO priority, 1...99. 50 sits above the default of kernel threaded IRQ handlers' peers in
    /// user space and below the kernel's own 99 watchdog/migration threads.
    public var priority: Int32 = 50
    /// CPU to pin the loop thread to; nil leaves it free.
    public var cpu: Int32? = nil
    public var lockMemory = true

    public init(priority: Int32 = 50, cpu: Int32? = nil, lockMemory: Bool = true) {
        self.priority = priority
        self.cpu = cpu
        self.lockMemory = lockMemory
    }

    /// What was actually granted.
    public struct Outcome: Sendable, Equatable {
        public var fifo = false
        /// The SCHED_FIFO priority in effect (the RLIMIT_RTPRIO ceiling when the one asked for was above it).
        public var priority: Int32 = 0
        public var memoryLocked = false
        public var pinnedCPU: Int32? = nil
        /// One reason per step that was refused, each saying what would allow it.
        public var refusals: [String] = []

        /// A single line for the log: what is in effect, and what was refused and why.
        public var summary: String {
            var granted: [String] = []
            if fifo { granted.append("SCHED_FIFO \(priority)") }
            if memoryLocked { granted.append("memory locked") }
            if let c = pinnedCPU { granted.append("pinned to CPU \(c)") }
            let head = granted.isEmpty ? "real-time mode not available" : "real-time mode: " + granted.joined(separator: ", ")
            if refusals.isEmpty { return head }
            return head + "; " + refusals.joined(separator: "; ")
                + (granted.isEmpty ? "; continuing with normal scheduling" : "; continuing with what was granted")
        }
    }

    /// Applies the settings to the calling thread.
    public func enter() -> Outcome {
        var outcome = Outcome()
        if !(1...99).contains(priority) {
            outcome.refusals.append("priority \(priority) is outside 1...99, SCHED_FIFO not requested")
        } else {
            let e = ht_rt_set_fifo(priority)
            let limit = ht_rt_rtprio_limit()
            if e == 0 {
                outcome.fifo = true
                outcome.priority = priority
            } else if limit >= 1 && limit < Int(priority) && ht_rt_set_fifo(Int32(limit)) == 0 {
                // An unprivileged thread may go up to its RLIMIT_RTPRIO: better than no real-time at all.
                outcome.fifo = true
                outcome.priority = Int32(limit)
                outcome.refusals.append("SCHED_FIFO \(priority) is above RLIMIT_RTPRIO \(limit), using \(limit)")
            } else {
                outcome.refusals.append("SCHED_FIFO \(priority) refused (\(describeErrno(e))): needs CAP_SYS_NICE or "
                    + "RLIMIT_RTPRIO ≥ \(priority) (now \(limit < 0 ? "unlimited" : String(limit)); systemd: LimitRTPRIO=\(priority), no RestrictRealtime=yes)")
            }
        }
        if lockMemory {
            let e = ht_rt_lock_memory()
            if e == 0 {
                outcome.memoryLocked = true
                ht_rt_prefault_stack(256 * 1024)
            } else {
                outcome.refusals.append("mlockall refused (\(e == 12 ? "lockable memory limit too small (ENOMEM)" : describeErrno(e))): needs CAP_IPC_LOCK or a larger RLIMIT_MEMLOCK (systemd: LimitMEMLOCK=infinity)")
            }
        }
        if let c = cpu {
            let e = ht_rt_set_affinity(c)
            if e == 0 {
                outcome.pinnedCPU = c
            } else {
                outcome.refusals.append("pinning to CPU \(c) refused (\(describeErrno(e))): this process may use \(ht_rt_allowed_cpus()) CPU(s), numbered from 0")
            }
        }
        return outcome
    }

    /// Sets the calling thread's timer slack to 1 ns (prctl PR_SET_TIMERSLACK; no privilege needed). The
    /// default 50 µs lets the kernel fire a normal thread's absolute sleep up to 50 µs late to batch
    /// wake-ups; a fixed-rate loop wants its deadline. (SCHED_FIFO threads have no slack anyway.)
    public static func tightenTimerSlack() { _ = ht_rt_set_timer_slack(1) }

    /// Returns the calling thread to normal scheduling (memory stays locked: munlockall is not worth the risk
    /// of faults mid-run, and the process is about to end anyway when this is used).
    public static func leaveFIFO() { _ = ht_rt_set_normal() }
}
