import LibC
import CBench
import Formats
import Service

/// Peak resident memory of a `headtrack` child process (its VmHWM), so the figure is that of the daemon
/// command alone, not of the benchmark that loaded a recording.
public struct PeakMemory: Sendable {
    public var arguments: [String]
    public var peakKiB: Int
    public var exitStatus: Int32

    /// Runs the daemon `headtrack` built beside this lab executable with `arguments`, output discarded.
    public static func measure(_ arguments: [String]) -> PeakMemory {
        let daemon = SiblingExecutable.path("headtrack") ?? "headtrack"
        let argv = ["headtrack"] + arguments
        var cStrings: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for p in cStrings { free(p) } }
        var peak = 0
        let status = cStrings.withUnsafeMutableBufferPointer { b in
            ht_run_child_measuring_rss(daemon, b.baseAddress, &peak)
        }
        return PeakMemory(arguments: arguments, peakKiB: peak, exitStatus: status)
    }

    /// This process's own peak (the benchmark, with the recording loaded).
    public static var ownPeakKiB: Int { ht_peak_rss_kib() }
}
