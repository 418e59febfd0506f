import LibC
import Gestures
import Formats
import EventStream

/// Log lines for the daemon. Under systemd (stdout/stderr connected to the journal, which sets
/// $JOURNAL_STREAM) every line starts with its syslog priority, `<4>` for warnings, so `journalctl -p warning`
/// shows the faults alone; in a terminal the prefix would only be noise, so it is left off there.
public enum Log {
    public enum Priority: Int {
        case error = 3, warning = 4, notice = 5, info = 6
    }

    public static let toJournal = getenv("JOURNAL_STREAM") != nil

    /// Each line made safe first (`Shown.message`): it may quote a config value or a file's contents.
    public static func info(_ s: String) { Console.out(line(Shown.message(s), .info, journal: toJournal)) }
    /// A notice on stderr, for commands whose stdout is data (`replay --json`).
    public static func noticeOnStderr(_ s: String) { Console.err(line(Shown.message(s), .notice, journal: toJournal)) }
    public static func warning(_ s: String) { Console.err(line(Shown.message(s), .warning, journal: toJournal)) }

    /// The service's own lines (minute summaries, notes): stdout as information, stderr as warnings.
    public static func say(_ line: ServiceLine) {
        switch line {
        case let .out(s): info(s)
        case let .err(s): warning(s)
        }
    }

    /// `run`'s gesture line ("t=12.34s gesture: nod"), formatted into `line` and written with one write(2): it
    /// is said from the loop thread, on the sample that completed the gesture, where nothing may allocate.
    public static func gesture(_ e: GestureEvent, at t: Double, into line: LineBuffer, journal: Bool = toJournal,
                        fd: Int32 = STDOUT_FILENO) {
        line.reset()
        if journal { line.literal("<6>") }   // Priority.info
        line.literal("t=")
        line.fixed(t, 2)
        line.literal("s gesture: ")
        line.literal(e.streamName)
        line.byte(UInt8(ascii: "\n"))
        guard !line.overflowed else { return }
        Console.write(fd, line.contents)
    }

    /// `s` with the priority prefix on every line when it goes to the journal (it reads each line alone).
    public static func line(_ s: String, _ priority: Priority, journal: Bool) -> String {
        guard journal else { return s }
        let prefix = "<\(priority.rawValue)>"
        return s.split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 }.joined(separator: "\n")
    }
}
