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
    /// `gestures.single`: when a single nod or shake counts: `asked` (default: only while an app's question
    /// is pending; otherwise two cycles are needed) or `always` (at the cost docs/gestures.md measures).
    public var singleGesturesAlways = false
    public var calibrationFile = "/var/lib/headtrack/calibration.json"
    /// `calibration.auto`: learn hard and soft iron in the background while worn (default on).
    public var autoCalibration = true
    /// `stream.socket`: where `run` serves the event stream; nil = `EventStream.defaultSocketPath`, "" = off.
    public var streamSocket: String? = nil
    /// `stream.stateHz`: state lines per second (0 = gestures and faults only, at most the display rate).
    public var streamStateHz = 60.0

    public init() {}

    /// `gpio.leds` names, in LED mask bit order: the `Led` enum's.
    public static let ledNames = Led.allCases.map(\.name)
    /// The spellings the file accepts for `i2c.imu`, `i2c.magnetometer` and `gestures.preset`, from the enums.
    public static let imuChoices: [(String, IMUKind?)] = [("auto", nil)] + IMUKind.allCases.map { ($0.rawValue, $0) }
    public static let magnetometerChoices: [(String, MagnetometerChoice)] =
        [("auto", .auto), ("none", .none)] + MagnetometerKind.allCases.map { ($0.rawValue, .pinned($0)) }
    public static let presetChoices: [(String, FlickPreset)] = FlickPreset.allCases.map { ($0.rawValue, $0) }
    public static let nodShakeChoices: [(String, GesturePreset)] = GesturePreset.allCases.map { ($0.rawValue, $0) }
    public static let singleChoices: [(String, Bool)] = [("asked", false), ("always", true)]

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
        let document: JSONDocument
        do { document = try JSONParser.parseDocument(bytes: bytes) } catch {
            throw ConfigError(path: path, line: error.line, message: "not valid JSON: column \(error.column): \(error.message)")
        }
        return try ConfigReader(path: path, document: document).read()
    }

    /// The pipeline settings this config asks for.
    public var pipelineSettings: Pipeline.Settings {
        var s = Pipeline.Settings()
        s.mount = mount
        s.compass.declinationDegrees = declinationDegrees
        s.gestures = GestureDetector.Settings(flicks: flicks, preset: gesturePreset, gestures: nodShakePreset,
                                              cooldown: cooldown)
        s.gestures.singleGesturesAlways = singleGesturesAlways
        if !autoCalibration { s.autoCalibration = nil }
        return s
    }
}

/// What is wrong with a config file: `FILE:LINE: field: message` (the line when the error is about one value).
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var line: Int?
    public var message: String
    public init(path: String, line: Int? = nil, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }
    public var description: String { line.map { "\(path):\($0): \(message)" } ?? "\(path): \(message)" }
}
