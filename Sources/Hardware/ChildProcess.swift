import LibC
import CLinux

/// Another program run to its end (`systemctl` for `calibrate --restart-service`).
public enum ChildProcess {
    /// Runs `argv` (argv[0] looked up in PATH) and waits: its exit status, 128+signal, or -errno when it could
    /// not start. `quiet` sends its stdout and stderr to /dev/null.
    public static func run(_ argv: [String], quiet: Bool) -> Int32 {
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) }
        cArgs.append(nil)
        defer { for p in cArgs { free(p) } }
        return ht_run_and_wait(&cArgs, quiet ? 1 : 0)
    }
}
