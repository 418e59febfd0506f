import Service

/// `--realtime [--cpu N] [--priority P]`, shared by `run` and `bench` (each declares the three in its table,
/// with these values allowed).
public enum RealtimeOptions {
    /// `--cpu`: a CPU number.
    public static let cpus = AllowedValues.wholeNumbers(0...1023)
    /// `--priority`: SCHED_FIFO's priorities.
    public static let priorities = AllowedValues.wholeNumbers(1...99)

    public static func parse(_ arguments: inout Arguments) throws -> RealtimeMode? {
        let enabled = arguments.flag("realtime")
        let cpu = try arguments.integer("cpu")
        let priority = try arguments.integer("priority")
        if !enabled {
            if cpu != nil || priority != nil { throw CommandError("--cpu and --priority need --realtime", status: 2) }
            return nil
        }
        var mode = RealtimeMode()
        if let p = priority { mode.priority = Int32(p) }
        if let c = cpu { mode.cpu = Int32(c) }
        return mode
    }

    /// Enters the mode and logs one line: refusals to stderr (as a warning), else the granted mode to stdout.
    public static func enter(_ mode: RealtimeMode?) {
        if let line = RealtimeMode.enterLine(mode) { Console.say(line) }
    }
}
