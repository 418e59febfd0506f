/// What this binary is: the release version and the commit it was built from, from `buildStamp`, which the
/// BuildStamp plugin generates as one literal `HEADTRACK_VERSION=0.2.0+6ca2c71d1e2f`. Deploy greps that literal
/// out of the binary (any architecture) to name the release, so `headtrack --version` on a board and the
/// release directory agree.
public enum BuildInfo {
    public static var stamp: String { buildStamp }
    /// "0.2.0".
    public static var version: String { part(0) }
    /// "6ca2c71d1e2f", "6ca2c71d1e2f-dirty", or "unknown" outside a git checkout.
    public static var commit: String { part(1) }
    /// "headtrack 0.2.0 (commit 6ca2c71d1e2f)".
    public static var versionLine: String { "headtrack \(version) (commit \(commit))" }

    private static func part(_ i: Int) -> String {
        let value = buildStamp.drop { $0 != "=" }.dropFirst()
        let parts = value.split(separator: "+", maxSplits: 1)
        return i < parts.count ? String(parts[i]) : "unknown"
    }
}
