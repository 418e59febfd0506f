import Geometry
import Gestures
import Indicators
import Sensors

/// One key of the config file, written once: its JSON path and how its value becomes a field of `Config`.
/// The reader walks the file against this list, so a key is known, read and listed in "known here" from here
/// alone, and a key the list does not have is refused with its path.
public struct ConfigKey: Sendable {
    public let path: String
    let read: @Sendable (inout Config, JSONValue, ConfigReader) throws(ConfigError) -> Void

    init(_ path: String, _ read: @escaping @Sendable (inout Config, JSONValue, ConfigReader) throws(ConfigError) -> Void) {
        self.path = path
        self.read = read
    }
}

extension Config {
    /// Every key the file may hold, in the order docs/config.md documents them.
    public static let keys: [ConfigKey] = [
        .string("i2c.device") { $0.i2cDevice = $1 },
        .choice("i2c.imu", imuChoices, hint: ConfigReader.probeHint) { $0.imu = $1 },
        ConfigKey("i2c.imuAddress") { c, v, r throws(ConfigError) in
            c.imuAddress = v == .null ? nil : UInt8(try r.integer(v, "i2c.imuAddress", range: ConfigLimits.i2cAddress))
        },
        .choice("i2c.magnetometer", magnetometerChoices, hint: ConfigReader.probeHint) { $0.magnetometer = $1 },
        .bool("i2c.detectFrozenData") { $0.detectFrozenData = $1 },
        .string("gpio.chip") { $0.gpioChip = $1 },
        .bool("gpio.activeLow") { $0.activeLow = $1 },
    ] + Led.allCases.map { led in
        ConfigKey("gpio.leds." + led.name) { c, v, r throws(ConfigError) in
            c.ledLines[led.rawValue] = UInt32(try r.integer(v, "gpio.leds." + led.name, range: ConfigLimits.gpioLine))
        }
    } + [
        .number("rates.imuHz", ConfigLimits.imuHz) { $0.rates.imuHz = $1 },
        .number("rates.magHz", ConfigLimits.magHz) { $0.rates.magHz = $1 },
        .number("rates.displayHz", ConfigLimits.displayHz) { $0.rates.displayHz = $1 },
        .mount("mount") { $0.mount = $1 },
        .mount("magnetometerMount") { $0.magnetometerMount = $1 },
        .number("declinationDeg", ConfigLimits.declinationDegrees) { $0.declinationDegrees = $1 },
        .bool("gestures.flicks") { $0.flicks = $1 },
        .choice("gestures.preset", presetChoices) { $0.gesturePreset = $1 },
        .choice("gestures.nodShake", nodShakeChoices) { $0.nodShakePreset = $1 },
        .number("gestures.cooldownS", ConfigLimits.gestureCooldown) { $0.cooldown = $1 },
        .choice("gestures.single", singleChoices) { $0.singleGesturesAlways = $1 },
        .string("calibrationFile") { $0.calibrationFile = $1 },
        .bool("calibration.auto") { $0.autoCalibration = $1 },
        .string("stream.socket") { $0.streamSocket = $1 },
        .number("stream.stateHz", ConfigLimits.streamStateHz) { $0.streamStateHz = $1 },
        // Informational, any value: a note for people, a schema URL for editors, the board a preset is for.
        .ignored("board"), .ignored("$schema"), .ignored("comment"),
    ]

    /// Checks across keys, after every key is read: (the JSON path they concern, the check).
    static let crossChecks: [(String, @Sendable (Config) -> String?)] = [
        ("gpio.leds", { c in Set(c.ledLines).count == c.ledLines.count ? nil : "two LEDs share a line: \(c.ledLines)" }),
    ]
}

extension ConfigKey {
    static func string(_ path: String, _ set: @escaping @Sendable (inout Config, String) -> Void) -> ConfigKey {
        ConfigKey(path) { c, v, r throws(ConfigError) in set(&c, try r.string(v, path)) }
    }
    static func bool(_ path: String, _ set: @escaping @Sendable (inout Config, Bool) -> Void) -> ConfigKey {
        ConfigKey(path) { c, v, r throws(ConfigError) in set(&c, try r.bool(v, path)) }
    }
    static func number(_ path: String, _ range: ClosedRange<Double>, _ set: @escaping @Sendable (inout Config, Double) -> Void) -> ConfigKey {
        ConfigKey(path) { c, v, r throws(ConfigError) in set(&c, try r.number(v, path, range: range)) }
    }
    static func choice<T: Sendable>(_ path: String, _ choices: [(String, T)], hint: String = "",
                                    _ set: @escaping @Sendable (inout Config, T) -> Void) -> ConfigKey {
        ConfigKey(path) { c, v, r throws(ConfigError) in set(&c, try r.choice(v, path, choices, hint: hint)) }
    }
    static func mount(_ path: String, _ set: @escaping @Sendable (inout Config, Mount) -> Void) -> ConfigKey {
        ConfigKey(path) { c, v, r throws(ConfigError) in
            let text = try r.string(v, path)
            let mount: Mount
            do { mount = try Mount(parsing: text) } catch {
                guard case let .invalid(_, why) = error as? MountError else { throw r.fail(path, "\(error)") }
                throw r.fail(path, "invalid mount \(Shown.quoted(text)): \(Shown.cut(why, limit: 200))")
            }
            set(&c, mount)
        }
    }
    static func ignored(_ path: String) -> ConfigKey { ConfigKey(path) { _, _, _ in } }
}

/// Walks the JSON tree against `Config.keys`: each value to its key, objects to the groups the keys' paths
/// make, anything else refused with its dotted path and the keys known at that level.
public struct ConfigReader {
    let path: String
    let document: JSONDocument
    static let probeHint = " (`headtrack probe` names what is on the bus)"

    func fail(_ key: String, _ message: String) -> ConfigError {
        ConfigError(path: path, line: document.line(key), message: "\(key): \(message)")
    }

    func read() throws(ConfigError) -> Config {
        var c = Config()
        try readObject(document.root, at: "", into: &c)
        for (key, check) in Config.crossChecks where document.line(key) != nil {
            if let problem = check(c) { throw fail(key, problem) }
        }
        return c
    }

    /// The names one level below `prefix` ("" for the top) that keys or groups use, in the keys' order.
    static func names(under prefix: String) -> [String] {
        var out: [String] = []
        for key in Config.keys where prefix.isEmpty || key.path.hasPrefix(prefix + ".") {
            let rest = prefix.isEmpty ? key.path : String(key.path.dropFirst(prefix.count + 1))
            let name = String(rest.split(separator: ".", maxSplits: 1)[0])
            if !out.contains(name) { out.append(name) }
        }
        return out
    }

    private func readObject(_ value: JSONValue, at prefix: String, into c: inout Config) throws(ConfigError) {
        guard case let .object(members) = value else { throw fail(prefix, "expected an object") }
        for (name, v) in members {
            let full = prefix.isEmpty ? name : prefix + "." + name
            if let key = Config.keys.first(where: { $0.path == full }) {
                try key.read(&c, v, self)
            } else if Config.keys.contains(where: { $0.path.hasPrefix(full + ".") }) {
                try readObject(v, at: full, into: &c)
            } else {
                let known = ConfigReader.names(under: prefix).joined(separator: ", ")
                throw fail(full, "unknown field (known here: \(known))")
            }
        }
    }

    func string(_ v: JSONValue, _ key: String) throws(ConfigError) -> String {
        guard case let .string(s) = v else { throw fail(key, "expected a string") }
        return s
    }

    /// The number as the file wrote it, for a message (1e400 or a million digits, not "inf").
    private func written(_ key: String, _ n: Double) -> String { document.numberText(key, else: n) }

    func number(_ v: JSONValue, _ key: String, range: ClosedRange<Double>) throws(ConfigError) -> Double {
        guard case let .number(n) = v else { throw fail(key, "expected a number") }
        guard range.contains(n) else { throw fail(key, "\(written(key, n)) is out of range \(ConfigLimits.text(range))") }
        return n
    }

    /// A whole number inside `range` (a pin or an address of 17.9 is a typo, not 17; 1e19 must not trap).
    func integer(_ v: JSONValue, _ key: String, range: ClosedRange<Double>) throws(ConfigError) -> Int {
        guard case let .number(n) = v else { throw fail(key, "expected a whole number") }
        guard n.isFinite, n == n.rounded() else {
            throw fail(key, "\(written(key, n)) is not a whole number (expected \(ConfigLimits.text(range)))")
        }
        guard range.contains(n), let i = v.integer(in: Int(range.lowerBound)...Int(range.upperBound)) else {
            throw fail(key, "\(written(key, n)) is out of range \(ConfigLimits.text(range))")
        }
        return i
    }

    /// One of `choices` by its spelling; anything else is refused with the list (`hint` says where to look).
    func choice<T>(_ v: JSONValue, _ key: String, _ choices: [(String, T)], hint: String = "") throws(ConfigError) -> T {
        let name = try string(v, key)
        guard let found = choices.first(where: { $0.0 == name }) else {
            throw fail(key, "\(Shown.quoted(name)) is not one of \(choices.map(\.0).joined(separator: ", "))" + hint)
        }
        return found.1
    }

    func bool(_ v: JSONValue, _ key: String) throws(ConfigError) -> Bool {
        guard case let .bool(b) = v else { throw fail(key, "expected true or false") }
        return b
    }
}
