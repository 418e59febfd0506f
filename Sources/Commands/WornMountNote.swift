import Geometry

/// What `replay` and `eval gestures` say when a recording's `frame` line states how it was worn but no
/// `--mount` was given: without one, a tilt toward a shoulder cannot be told from a nod. The note only
/// suggests the option; the mount that runs is the one the user passes.
public enum WornMountNote {
    /// One line per distinct stated mount, naming the files (the first three, then a count).
    public static func lines(_ files: [(name: String, worn: Mount?)]) -> [String] {
        var order: [String] = []
        var names: [String: [String]] = [:]
        for f in files {
            guard let m = f.worn else { continue }
            let key = m.description
            if names[key] == nil { order.append(key) }
            names[key, default: []].append(f.name)
        }
        return order.map { key in
            let list = names[key] ?? []
            let shown = list.prefix(3).joined(separator: ", ") + (list.count > 3 ? " and \(list.count - 3) more" : "")
            let subject = list.count == 1 ? "the frame line of \(shown) says it was" : "the frame lines of \(shown) say they were"
            return "note: \(subject) worn as mount \(key); give --mount=\(key) so that a nod is pitch about the "
                + "head's left-right axis and a tilt toward a shoulder is not taken for one"
        }
    }
}
