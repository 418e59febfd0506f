import Service

/// `--realtime [--cpu N] [--priority P]`, shared by `run` and `bench`.
public enum RealtimeOptions {
    public static func parse(_ arguments: inout Arguments) throws -> RealtimeMode? {
        let enabled = arguments.flag("realtime")
        let cpu = try arguments.double("cpu")
        let priority = try arguments.double("priority")
        if !enabled {
            if cpu != nil || priority != nil { throw CommandError("--cpu and --priority need --realtime", status: 2) }
            return nil
        }
        var mode = RealtimeMode()
        if let p = priority {
            guard p >= 1 && p <= 99 && p == p.rounded() else { throw CommandError("--priority must be a whole number 1...99", status: 2) }
            mode.priority = Int32(p)
        }
        if let c = cpu {
            guard c >= 0 && c < 1024 && c == c.rounded() else { throw CommandError("--cpu must be a CPU number (0, 1, ...)", status: 2) }
            mode.cpu = Int32(c)
        }
        return mode
    }

    /// Enters the mode and logs one line: refusals to stderr (as a warning), else the granted mode to stdout.
    public static func enter(_ mode: RealtimeMode?) {
        if let line = RealtimeMode.enterLine(mode) { Console.say(line) }
    }
}
