/// Bounds for command-line numbers, checked before a number becomes a deadline or a loop bound.
enum Limits {
    /// A demo slower than 1/100 of real time is 40 minutes for the 24 s story: slower is a typo. (At 1e-15
    /// the real-time deadline overflowed Int64 and trapped.)
    static let minSpeed = 0.01
    /// Faster than this the simulation is CPU-bound anyway; 0 already means "as fast as possible".
    static let maxSpeed = 1e6
}
