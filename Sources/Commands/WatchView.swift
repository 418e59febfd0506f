import Formats
import SensorCalibration

/// What `headtrack watch` knows from the stream, and how it is drawn: seven lines of at most 78 columns, so an
/// 80-column terminal shows them without wrapping and they can be redrawn in place.
struct WatchModel {
    var source = ""
    var imu = "?"
    var magnetometer: String? = nil
    var imuHz = 0.0
    /// The mount in use ("-x,z,y", nil: none) and where it came from (config, learned, none; "" before a hello says).
    var mount: String? = nil
    var mountSource = ""
    var stateHz = 0.0
    var t = 0.0
    var heading: Double? = nil
    var headingValid = false
    var pitch = 0.0
    var roll = 0.0
    var leds: UInt64 = 0
    var hasState = false
    /// Most recent first, at most `keptGestures`.
    var gestures: [(name: String, t: Double)] = []
    var faultActive = false
    var faultKind = ""
    var faultSince = 0.0
    var faultEpisodes = 0
    var lines = 0
    var dropped = 0
    /// From the latest `calibration` line: state, the fit in use (error and coverage, %), regions holding
    /// samples, and the field error of the latest judging (%).
    var compassState: String? = nil
    var compassFit: (error: Double, coverage: Double)? = nil
    var compassRegions = 0
    var compassFieldError: Double? = nil
    /// Seconds since the last state line, once that is longer than `staleAfter`: the tracker is stopped or
    /// frozen (SIGSTOP, a hung bus) while its socket stays open, so nothing else would tell.
    var staleFor: Double? = nil
    static let keptGestures = 4
    /// Largest `n` one `dropped` line can honestly carry: the server counts state lines, at most 240 a second.
    static let maxDroppedPerLine = 1 << 40
    static let width = 78

    /// How long without a state line before the view says it is stale: a second, or two state periods
    /// when the stream sends fewer than two a second; nil when it sends none (stream.stateHz 0).
    var staleAfter: Double? { stateHz > 0 ? max(1, 2 / stateHz) : nil }

    /// Takes one JSON line; returns what kind of message it was ("" when it could not be read).
    @discardableResult
    mutating func take(_ text: String) -> String {
        guard let v = try? JSONParser.parse(text), case let .string(type)? = v["type"] else { return "" }
        lines += 1
        switch type {
        case "hello":
            // Names from the wire are shown escaped: whatever serves the socket cannot drive the terminal.
            if case let .string(s)? = v["imu"] { imu = Shown.cut(s) }
            if case let .string(s)? = v["magnetometer"] { magnetometer = Shown.cut(s) } else { magnetometer = nil }
            if case let .number(n)? = v["rates"]?["imu_hz"] { imuHz = n }
            if case let .number(n)? = v["rates"]?["state_hz"] { stateHz = n }
            if case let .string(m)? = v["mount"] { mount = m } else { mount = nil }
            if case let .string(m)? = v["mount_source"] { mountSource = m } else { mountSource = "" }
        case "state":
            hasState = true
            staleFor = nil
            if case let .number(n)? = v["t"] { t = n }
            if case let .number(n)? = v["heading_deg"] { heading = n } else { heading = nil }
            headingValid = v["heading_valid"] == .bool(true)
            if case let .number(n)? = v["pitch_deg"] { pitch = n }
            if case let .number(n)? = v["roll_deg"] { roll = n }
            if case let .object(members)? = v["leds"] {
                var mask: UInt64 = 0
                for (name, on) in members where on == .bool(true) {
                    if let i = Config.ledNames.firstIndex(of: name) { mask |= 1 << UInt64(i) }
                }
                leds = mask
            }
        case "gesture":
            // Unreadable without its name and time: `show` then prints the newest gesture, which must be this one.
            guard case let .string(name)? = v["gesture"], case let .number(at)? = v["t"] else { return "" }
            gestures.insert((Shown.cut(name), at), at: 0)
            if gestures.count > WatchModel.keptGestures { gestures.removeLast() }
        case "fault":
            if case let .number(n)? = v["t"] { t = max(t, n) }
            if v["active"] == .bool(true) {
                faultActive = true
                faultEpisodes += 1
                if case let .string(k)? = v["kind"] { faultKind = Shown.cut(k) }
                if case let .number(n)? = v["t"] { faultSince = n }
            } else {
                faultActive = false
            }
        case "calibration":
            guard case let .string(phase)? = v["phase"] else { return "" }
            if phase != "background" {
                // The guided session's lines (`calibrate --socket`): its phase is what there is to tell.
                compassState = "guided calibration: " + phase
                compassFit = nil
                compassFieldError = nil
                break
            }
            guard case let .string(state)? = v["state"] else { return "" }
            compassState = state
            if case let .number(e)? = v["in_use"]?["residual"], case let .number(c)? = v["in_use"]?["coverage"] {
                compassFit = (e * 100, c * 100)
            } else {
                compassFit = nil
            }
            if case let .number(e)? = v["field_error"] { compassFieldError = e * 100 } else { compassFieldError = nil }
            if case let .array(counts)? = v["fit"]?["cells"] {
                compassRegions = counts.filter { if case let .number(n) = $0 { return n > 0 } else { return false } }.count
            }
        case "dropped":
            // From the wire: a count the server could never send (negative, fractional, 1e300) is ignored,
            // not converted (Int(1e300) traps), and the total saturates instead of overflowing.
            if let n = v["n"]?.integer(in: 0...WatchModel.maxDroppedPerLine) {
                dropped = dropped > Int.max - n ? Int.max : dropped + n
            }
        default: break
        }
        return type
    }

    /// The screen: every line at most `width` columns.
    var screen: [String] {
        let sensors = imu + (magnetometer.map { " + " + $0 } ?? ", no magnetometer")
        let mountText = mountSource.isEmpty ? "" : "  mount " + (mount.map { "\($0) (\(mountSource))" } ?? "none")
        let header = "headtrack watch  \(sensors)  IMU \(fixed(imuHz, 0)) Hz" + mountText
        let ledLine = "LEDs  " + LiveView.ledRow(leds)
        let headingText: String
        if let h = heading { headingText = LiveView.pad(fixed(h, 0), 3) + "°" + (headingValid ? " live" : " held") } else { headingText = "  --° none" }
        let attitude = staleFor.map { "STALE: no state line for \(fixed($0, 1)) s (tracker stopped or frozen?)" } ?? (hasState
            ? "heading \(headingText)   pitch \(LiveView.pad(fixed(pitch, 0), 4))°   roll \(LiveView.pad(fixed(roll, 0), 4))°   t=\(LiveView.pad(fixed(t, 1), 7)) s"
            : (stateHz == 0 ? "no state lines (stream.stateHz is 0): gestures and faults only" : "waiting for the first state line"))
        let gestureText = gestures.isEmpty ? "none yet" : gestures.map { "\($0.name) \(fixed($0.t, 1)) s" }.joined(separator: ", ")
        let faultText = faultActive
            ? "SENSOR FAULT \(faultKind) since \(fixed(faultSince, 1)) s (\(faultEpisodes) so far)"
            : (faultEpisodes == 0 ? "none" : "none now (\(faultEpisodes) so far, last \(faultKind) at \(fixed(faultSince, 1)) s)")
        var compass = "compass: " + (compassState ?? "(no calibration line yet)")
        if let f = compassFit { compass += "; fit \(fixed(f.error, 1)) %, \(fixed(f.coverage, 0)) % covered" }
        if compassState == "learning" { compass += "; \(compassRegions)/\(SphereCoverage.cellCount) regions" }
        if let e = compassFieldError { compass += "; field \(fixed(e, 1)) % off" }
        let stream = "\(lines) lines from \(source)" + (dropped > 0 ? ", \(dropped) state lines dropped (slow terminal)" : "")
        return [header, ledLine, attitude, "gestures: " + gestureText, "faults: " + faultText, compass, stream].map(WatchModel.clip)
    }

    static func clip(_ s: String) -> String {
        s.count <= width ? s : String(s.prefix(width - 1)) + "…"
    }
}
