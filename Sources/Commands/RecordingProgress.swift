import Service
import LibC
import Formats

/// Elapsed time and sample count on stderr while recording on hardware: redrawn once a second on a
/// terminal, a line every 10 s otherwise (a log should not fill with progress).
struct RecordingProgress {
    private var next = 1.0
    private let live = isatty(STDERR_FILENO) == 1

    mutating func update(t: Double, samples: Int) {
        guard t >= next else { return }
        next += live ? 1 : 10
        let text = "recording: \(fixed(t, 0)) s, \(samples) samples"
        if live { Console.write(STDERR_FILENO, "\r" + text + "   ") } else { Console.err(text) }
    }

    func finish() { if live && next > 1 { Console.err("") } }
}
