import Geometry
import Tracking

extension Trace {
    /// The mount a trace's `frame` line states in words, e.g. `# frame: sensor axes as recorded; worn: X back,
    /// Y up, Z left` (the shared headphone recordings) gives `-x,z,y`. nil when there is no `worn:` clause or
    /// it does not name one direction for each of X, Y and Z that together make a proper (right-handed) frame:
    /// a statement that cannot be read exactly is not guessed at.
    ///
    /// Nothing applies it by itself: a replay without `--mount` only says that the trace names one, so what
    /// the user passes stays what runs.
    public var wornMount: Mount? {
        guard let frame = metadata["frame"] else { return nil }
        return Trace.mount(describedBy: frame)
    }

    /// The mount a trace's `mount` line gives as signed sensor axes, e.g. `# mount: x,z,-y (participant's
    /// estimate ...)` gives `x,z,-y`; nil for `unknown`, no line, or a first word that is not a mount.
    public var statedMount: Mount? {
        guard let line = metadata["mount"], line.utf8.count <= 1000,
              let first = line.split(separator: " ").first, first != "unknown" else { return nil }
        return try? Mount(parsing: String(first))
    }

    /// Reads the clause after `worn:` (up to a `;` or the end) as three "AXIS DIRECTION" parts.
    static func mount(describedBy frame: String) -> Mount? {
        // Bounded input: a metadata value is one line of a file someone else wrote.
        guard frame.utf8.count <= 1000 else { return nil }
        let lower = frame.lowercased()
        guard let marker = lower.firstRange(of: "worn:") else { return nil }
        let clause = lower[marker.upperBound...].prefix { $0 != ";" }
        let parts = clause.split(separator: ",")
        guard parts.count == 3 else { return nil }
        // head axis (0 forward, 1 left, 2 up) → signed sensor axis, e.g. "-x"
        var headAxes: [String?] = [nil, nil, nil]
        var sensorAxesSeen = Set<Character>()
        for part in parts {
            let words = part.split(separator: " ")
            guard words.count == 2, let axis = words[0].first, words[0].count == 1, "xyz".contains(axis),
                  sensorAxesSeen.insert(axis).inserted,
                  let (headAxis, sign) = direction(String(words[1])), headAxes[headAxis] == nil
            else { return nil }
            headAxes[headAxis] = (sign < 0 ? "-" : "") + String(axis)
        }
        guard let f = headAxes[0], let l = headAxes[1], let u = headAxes[2] else { return nil }
        return try? Mount(parsing: "\(f),\(l),\(u)")
    }

    /// A direction word as (head axis, sign): "back" is forward negated.
    private static func direction(_ word: String) -> (Int, Int)? {
        switch word {
        case "forward", "forwards", "front": return (0, 1)
        case "back", "backward", "backwards", "rear": return (0, -1)
        case "left": return (1, 1)
        case "right": return (1, -1)
        case "up": return (2, 1)
        case "down": return (2, -1)
        default: return nil
        }
    }
}
