import LibC
import SimulatedRuns

/// `run --simulated`'s simulated wearer (`SimulatedWearer`): `--answer nod|shake` answers every app's question,
/// `--keys` nods on `n` and shakes on `s` typed on standard input (then Enter: the terminal sends whole lines),
/// `--loop` plays the story again and again. Any of them keeps the run going until stopped (or --duration).
struct WearerOptions {
    var answer: SimulatedWearer.Gesture? = nil
    var keys = false
    var loop = false

    var any: Bool { answer != nil || keys || loop }

    static func parse(_ arguments: inout Arguments) throws -> WearerOptions {
        var w = WearerOptions()
        switch try arguments.option("answer") {
        case nil: break
        case "nod"?: w.answer = .nod
        case "shake"?: w.answer = .shake
        default: break  // its row allows no other word
        }
        w.keys = arguments.flag("keys")
        w.loop = arguments.flag("loop")
        return w
    }
}

/// Keys from standard input without waiting: a zero-timeout poll, then one byte. The descriptor's flags are
/// left alone (O_NONBLOCK on a terminal would stay set for the shell after we exit). At end of input (a closed
/// pipe, /dev/null) it stops reading.
final class StandardInputKeys {
    private var ended = false

    func next() -> UInt8? {
        guard !ended else { return nil }
        var p = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, 0) > 0 else { return nil }
        var byte: UInt8 = 0
        let n = read(0, &byte, 1)
        if n == 1 { return byte }
        if n == 0 || (errno != EINTR && errno != EAGAIN) { ended = true }
        return nil
    }
}
