import Geometry
import Gestures
import Indicators
import Sensors
import Tracking

/// The configuration file (JSON; // comments allowed). Every field is optional with a default; unknown
/// fields are rejected with their path, so a typo never silently falls back to a default.
public struct Config: Sendable, Equatable {
    public var i2cDevice = "/dev/i2c-1"
    /// nil: detect whichever IMU answers ("auto" in the file).
    public var imu: IMUKind? = nil
    public var imuAddress: UInt8? = nil
    public var magnetometer: MagnetometerChoice = .auto
    /// Treat identical samples in a row as a fault (frozen data registers). Real sensor noise makes them
    /// impossible; turn this off only for test rigs whose registers never change on their own (i2c-stub).
    public var detectFrozenData = true
    public var gpioChip = "pinctrl-bcm2711"
    public var activeLow = false
    /// BCM line offsets by role, in `Led` order: nod, shake, north, up, down, left, right, status.
    public var ledLines: [UInt32] = [17, 27, 22, 23, 24, 25, 5, 6]
    public var rates = LoopRates()
    /// How the sensor sits on the head; nil when the config names none (see `Pipeline.Settings.mount`).
    public var mount: Mount? = nil
    /// How a standalone magnetometer (QMC5883L, HMC5883L) sits relative to the IMU, in the same
    /// "forward,left,up" notation with the IMU's x, y, z as forward, left, up: "x,y,z" (default) means its axes
    /// are aligned with the IMU's. Not applied to in-package magnetometers, whose alignment the datasheet fixes.
    public var magnetometerMount: Mount = .identity
    public var declinationDegrees = 0.0
    public var flicks = false
    public var gesturePreset: FlickPreset = .normal
    /// How gentle a nod or shake may be (`gestures.nodShake`): sensitive, normal (default) or firm.
    public var nodShakePreset = GesturePreset.normal
    public var cooldown = 0.5
    public var calibrationFile = "/var/lib/headtrack/calibration.json"
    /// `calibration.auto`: learn hard and soft iron in the background while worn (default on).
    public var autoCalibration = true
    /// `stream.socket`: where `run` serves the event stream; nil = `EventStream.defaultSocketPath`, "" = off.
    public var streamSocket: String? = nil
    /// `stream.stateHz`: state lines per second (0 = gestures and faults only, at most the display rate).
    public var streamStateHz = 60.0

    public init() {}

    public static let ledNames = ["nod", "shake", "north", "up", "down", "left", "right", "status"]
    /// The spellings the file accepts for `i2c.imu`, `i2c.magnetometer` and `gestures.preset`, from the enums.
    public static let imuChoices: [(String, IMUKind?)] = [("auto", nil)] + IMUKind.allCases.map { ($0.rawValue, $0) }
    public static let magnetometerChoices: [(String, MagnetometerChoice)] =
        [("auto", .auto), ("none", .none)] + MagnetometerKind.allCases.map { ($0.rawValue, .pinned($0)) }
    public static let presetChoices: [(String, FlickPreset)] = FlickPreset.allCases.map { ($0.rawValue, $0) }
    public static let nodShakeChoices: [(String, GesturePreset)] = GesturePreset.allCases.map { ($0.rawValue, $0) }

    /// What to look for on the bus.
    public var detectionRequest: DetectionRequest {
        DetectionRequest(imu: imu, imuAddress: imuAddress, magnetometer: magnetometer)
    }

    /// Plausibility checks on every sample.
    public var screenSettings: SampleScreen.Settings {
        var s = SampleScreen.Settings(imuRateHz: rates.imuHz)
        if !detectFrozenData {
            s.imuFrozenAfter = Int.max
            s.magnetometerFrozenAfter = Int.max
        }
        return s
    }

    /// Driver settings for the IMU.
    public var imuSettings: IMUSettings {
        var s = IMUSettings()
        s.sampleRateHz = rates.imuHz
        return s
    }

    public static func load(path: String) throws(ConfigError) -> Config {
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path, limit: FileIO.smallFileLimit) } catch { throw ConfigError(path: path, message: error.message) }
        return try parse(bytes: bytes, path: path)
    }

    public static func parse(_ text: String, path: String = "config") throws(ConfigError) -> Config {
        try parse(bytes: Array(text.utf8), path: path)
    }

    /// Parses the file's raw bytes, so a byte that is not UTF-8 is an error rather than a U+FFFD in a path.
    public static func parse(bytes: [UInt8], path: String = "config") throws(ConfigError) -> Config {
        let root: JSONValue
        do { root = try JSONParser.parse(bytes: bytes) } catch { throw ConfigError(path: path, message: "not valid JSON: \(error)") }
        var reader = ConfigReader(path: path)
        return try reader.read(root)
    }

    /// The pipeline settings this config asks for.
    public var pipelineSettings: Pipeline.Settings {
        var s = Pipeline.Settings()
        s.mount = mount
        s.compass.declinationDegrees = declinationDegrees
        s.gestures = GestureDetector.Settings(flicks: flicks, preset: gesturePreset, gestures: nodShakePreset,
                                              cooldown: cooldown)
        if !autoCalibration { s.autoCalibration = nil }
        return s
    }
}

public struct ConfigError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "config \(path): \(message)" }
}

/// Walks the JSON tree, checking types and rejecting unknown keys with their dotted path.
struct ConfigReader {
    let path: String
    static let probeHint = " (`headtrack probe` names what is on the bus)"

    func fail(_ key: String, _ message: String) -> ConfigError { ConfigError(path: path, message: "\(key): \(message)") }

    func object(_ v: JSONValue, at key: String, allowed: [String]) throws(ConfigError) -> [(String, JSONValue)] {
        guard case let .object(members) = v else { throw fail(key, "expected an object") }
        for (k, _) in members where !allowed.contains(k) {
            let full = key.isEmpty ? k : key + "." + k
            throw fail(full, "unknown field (known here: \(allowed.joined(separator: ", ")))")
        }
        return members
    }

    func string(_ v: JSONValue, _ key: String) throws(ConfigError) -> String {
        guard case let .string(s) = v else { throw fail(key, "expected a string") }
        return s
    }

    func number(_ v: JSONValue, _ key: String, range: ClosedRange<Double>) throws(ConfigError) -> Double {
        guard case let .number(n) = v else { throw fail(key, "expected a number") }
        guard range.contains(n) else { throw fail(key, "\(n) is out of range \(range.lowerBound)...\(range.upperBound)") }
        return n
    }

    /// A whole number inside `range` (a pin or an address of 17.9 is a typo, not 17; 1e19 must not trap).
    func integer(_ v: JSONValue, _ key: String, range: ClosedRange<Double>) throws(ConfigError) -> Int {
        guard case let .number(n) = v else { throw fail(key, "expected a whole number") }
        guard n.isFinite, n == n.rounded() else {
            throw fail(key, "\(n) is not a whole number (expected \(ConfigLimits.text(range)))")
        }
        guard range.contains(n), let i = v.integer(in: Int(range.lowerBound)...Int(range.upperBound)) else {
            throw fail(key, "\(n) is out of range \(ConfigLimits.text(range))")
        }
        return i
    }

    /// One of `choices` by its spelling; anything else is refused with the list (`hint` says where to look).
    func choice<T>(_ v: JSONValue, _ key: String, _ choices: [(String, T)], hint: String = "") throws(ConfigError) -> T {
        let name = try string(v, key)
        guard let found = choices.first(where: { $0.0 == name }) else {
            throw fail(key, "'\(name)' is not one of \(choices.map(\.0).joined(separator: ", "))" + hint)
        }
        return found.1
    }

    func bool(_ v: JSONValue, _ key: String) throws(ConfigError) -> Bool {
        guard case let .bool(b) = v else { throw fail(key, "expected true or false") }
        return b
    }

    mutating func read(_ root: JSONValue) throws(ConfigError) -> Config {
        var c = Config()
        let top = try object(root, at: "", allowed: ["i2c", "gpio", "rates", "mount", "magnetometerMount", "declinationDeg", "gestures",
                                                       "calibrationFile", "calibration", "stream", "board", "$schema", "comment"])
        for (k, v) in top {
            switch k {
            case "i2c":
                for (k2, v2) in try object(v, at: "i2c", allowed: ["device", "imu", "imuAddress", "magnetometer", "detectFrozenData"]) {
                    let key = "i2c." + k2
                    switch k2 {
                    case "device": c.i2cDevice = try string(v2, key)
                    case "detectFrozenData": c.detectFrozenData = try bool(v2, key)
                    case "imu": c.imu = try choice(v2, key, Config.imuChoices, hint: Self.probeHint)
                    case "magnetometer": c.magnetometer = try choice(v2, key, Config.magnetometerChoices, hint: Self.probeHint)
                    default:
                        if v2 == .null { c.imuAddress = nil } else { c.imuAddress = UInt8(try integer(v2, key, range: ConfigLimits.i2cAddress)) }
                    }
                }
            case "gpio":
                for (k2, v2) in try object(v, at: "gpio", allowed: ["chip", "activeLow", "leds"]) {
                    let key = "gpio." + k2
                    switch k2 {
                    case "chip": c.gpioChip = try string(v2, key)
                    case "activeLow": c.activeLow = try bool(v2, key)
                    default:
                        for (name, line) in try object(v2, at: key, allowed: Config.ledNames) {
                            let index = Config.ledNames.firstIndex(of: name)!
                            c.ledLines[index] = UInt32(try integer(line, key + "." + name, range: ConfigLimits.gpioLine))
                        }
                        if Set(c.ledLines).count != c.ledLines.count {
                            throw fail(key, "two LEDs share a line: \(c.ledLines)")
                        }
                    }
                }
            case "rates":
                for (k2, v2) in try object(v, at: "rates", allowed: ["imuHz", "magHz", "displayHz"]) {
                    let key = "rates." + k2
                    switch k2 {
                    case "imuHz": c.rates.imuHz = try number(v2, key, range: ConfigLimits.imuHz)
                    case "magHz": c.rates.magHz = try number(v2, key, range: ConfigLimits.magHz)
                    default: c.rates.displayHz = try number(v2, key, range: ConfigLimits.displayHz)
                    }
                }
            case "mount":
                let text = try string(v, "mount")
                do { c.mount = try Mount(parsing: text) } catch { throw fail("mount", error.description) }
            case "magnetometerMount":
                let text = try string(v, k)
                do { c.magnetometerMount = try Mount(parsing: text) } catch { throw fail(k, error.description) }
            case "declinationDeg": c.declinationDegrees = try number(v, k, range: ConfigLimits.declinationDegrees)
            case "gestures":
                for (k2, v2) in try object(v, at: "gestures", allowed: ["flicks", "preset", "nodShake", "cooldownS"]) {
                    let key = "gestures." + k2
                    switch k2 {
                    case "flicks": c.flicks = try bool(v2, key)
                    case "preset": c.gesturePreset = try choice(v2, key, Config.presetChoices)
                    case "nodShake": c.nodShakePreset = try choice(v2, key, Config.nodShakeChoices)
                    default: c.cooldown = try number(v2, key, range: ConfigLimits.gestureCooldown)
                    }
                }
            case "calibrationFile": c.calibrationFile = try string(v, k)
            case "calibration":
                for (k2, v2) in try object(v, at: "calibration", allowed: ["auto"]) {
                    c.autoCalibration = try bool(v2, "calibration." + k2)
                }
            case "stream":
                for (k2, v2) in try object(v, at: "stream", allowed: ["socket", "stateHz"]) {
                    let key = "stream." + k2
                    switch k2 {
                    case "socket": c.streamSocket = try string(v2, key)
                    default: c.streamStateHz = try number(v2, key, range: 0...240)
                    }
                }
            default: break  // board, $schema, comment: informational
            }
        }
        return c
    }
}
