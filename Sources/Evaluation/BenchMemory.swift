#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CRealtime

/// Peak resident memory of a `headtrack` child process (wait4's rusage), so the figure is that of the
/// command alone, not of the benchmark that loaded a recording.
public struct PeakMemory: Sendable {
    public var arguments: [String]
    public var peakKiB: Int
    public var exitStatus: Int32

    /// Runs this same executable (/proc/self/exe) with `arguments`, output discarded.
    public static func measure(_ arguments: [String]) -> PeakMemory {
        let argv = ["headtrack"] + arguments
        var cStrings: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for p in cStrings { free(p) } }
        var peak = 0
        let status = cStrings.withUnsafeMutableBufferPointer { b in
            ht_run_child_measuring_rss("/proc/self/exe", b.baseAddress, &peak)
        }
        return PeakMemory(arguments: arguments, peakKiB: peak, exitStatus: status)
    }

    /// This process's own peak (the benchmark, with the recording loaded).
    public static var ownPeakKiB: Int { ht_peak_rss_kib() }
}
