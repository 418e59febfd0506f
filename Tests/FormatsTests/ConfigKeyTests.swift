import Testing
import Geometry
import Sensors
import Gestures
@testable import Formats

/// Each key of the config file sets the field it names and nothing else. The expected field is written here,
/// by hand, not taken from the schema: a key read into the wrong field (the old `default:` branches) fails.
@Suite struct ConfigKeyTests {
    /// Key → (a value that is not the default, the same change made by hand to a default Config).
    static let expected: [String: (json: String, change: @Sendable (inout Config) -> Void)] = [
        "i2c.device": (#""/dev/i2c-7""#, { $0.i2cDevice = "/dev/i2c-7" }),
        "i2c.imu": (#""icm20948""#, { $0.imu = .icm20948 }),
        "i2c.imuAddress": ("105", { $0.imuAddress = 0x69 }),
        "i2c.magnetometer": (#""qmc5883l""#, { $0.magnetometer = .pinned(.qmc5883l) }),
        "i2c.detectFrozenData": ("false", { $0.detectFrozenData = false }),
        "gpio.chip": (#""pinctrl-rp1""#, { $0.gpioChip = "pinctrl-rp1" }),
        "gpio.activeLow": ("true", { $0.activeLow = true }),
        "gpio.leds.nod": ("40", { $0.ledLines[0] = 40 }),
        "gpio.leds.shake": ("41", { $0.ledLines[1] = 41 }),
        "gpio.leds.north": ("42", { $0.ledLines[2] = 42 }),
        "gpio.leds.up": ("43", { $0.ledLines[3] = 43 }),
        "gpio.leds.down": ("44", { $0.ledLines[4] = 44 }),
        "gpio.leds.left": ("45", { $0.ledLines[5] = 45 }),
        "gpio.leds.right": ("46", { $0.ledLines[6] = 46 }),
        "gpio.leds.status": ("47", { $0.ledLines[7] = 47 }),
        "rates.imuHz": ("500", { $0.rates.imuHz = 500 }),
        "rates.magHz": ("50", { $0.rates.magHz = 50 }),
        "rates.displayHz": ("30", { $0.rates.displayHz = 30 }),
        "mount": (#""-x,z,y""#, { $0.mount = Mount(forward: Vector3(-1, 0, 0), left: Vector3(0, 0, 1), up: Vector3(0, 1, 0)) }),
        "magnetometerMount": (#""y,-x,z""#, { $0.magnetometerMount = Mount(forward: Vector3(0, 1, 0), left: Vector3(-1, 0, 0), up: Vector3(0, 0, 1)) }),
        "declinationDeg": ("-12.5", { $0.declinationDegrees = -12.5 }),
        "gestures.flicks": ("true", { $0.flicks = true }),
        "gestures.preset": (#""firm""#, { $0.gesturePreset = .firm }),
        "gestures.nodShake": (#""sensitive""#, { $0.nodShakePreset = .sensitive }),
        "gestures.cooldownS": ("2", { $0.cooldown = 2 }),
        "gestures.single": (#""always""#, { $0.singleGesturesAlways = true }),
        "calibrationFile": (#""/tmp/cal.json""#, { $0.calibrationFile = "/tmp/cal.json" }),
        "calibration.auto": ("false", { $0.autoCalibration = false }),
        "stream.socket": (#""/tmp/e.sock""#, { $0.streamSocket = "/tmp/e.sock" }),
        "stream.stateHz": ("15", { $0.streamStateHz = 15 }),
        // Informational: read and changing nothing.
        "board": (#"{"name": "Pi 5", "notes": [1, 2]}"#, { _ in }),
        "$schema": (#""https://example.org/headtrack.json""#, { _ in }),
        "comment": (#""the lab's headset""#, { _ in }),
    ]

    /// `{"a": {"b": VALUE}}` for the path a.b.
    static func document(_ path: String, _ value: String) -> String {
        let parts = path.split(separator: ".")
        return parts.reversed().reduce(value) { inner, name in "{\"\(name)\": \(inner)}" }
    }

    @Test func everyKeyHasAnExpectedField() {
        let keys = Config.keys.map(\.path)
        #expect(Set(keys).count == keys.count, "a key written twice: \(keys)")
        #expect(Set(keys) == Set(Self.expected.keys), "keys without a test here, or tests for keys that are gone")
    }

    @Test(arguments: Config.keys.map(\.path))
    func keyChangesTheFieldItNames(path: String) throws {
        let want = try #require(Self.expected[path], "no expected field for \(path)")
        var expected = Config()
        want.change(&expected)
        let parsed = try Config.parse(Self.document(path, want.json))
        #expect(parsed == expected, "\(path): \(Self.document(path, want.json))")
        if !["board", "$schema", "comment"].contains(path) {
            #expect(parsed != Config(), "\(path): the test value is the default, so it proves nothing")
        }
    }

    /// One document with every key at once, nested by the keys' paths.
    static func render(_ entries: [([Substring], String)]) -> String {
        if entries.count == 1 && entries[0].0.isEmpty { return entries[0].1 }
        var names: [Substring] = []
        for (parts, _) in entries where !names.contains(parts[0]) { names.append(parts[0]) }
        return "{" + names.map { name in
            "\"\(name)\": " + render(entries.filter { $0.0[0] == name }.map { (Array($0.0.dropFirst()), $0.1) })
        }.joined(separator: ", ") + "}"
    }

    @Test func allKeysTogetherGiveEveryField() throws {
        var expected = Config()
        var entries: [([Substring], String)] = []
        for key in Config.keys {
            let want = try #require(Self.expected[key.path])
            want.change(&expected)
            entries.append((key.path.split(separator: "."), want.json))
        }
        let text = Self.render(entries)
        #expect(try Config.parse(text) == expected, "\(text)")
    }

    @Test func unknownKeysAreRefusedWithTheirPathAtEveryLevel() {
        #expect(throws: ConfigError(path: "c.json", line: 1, message: "colour: unknown field (known here: i2c, gpio, rates, mount, magnetometerMount, declinationDeg, gestures, calibrationFile, calibration, stream, board, $schema, comment)")) {
            try Config.parse(#"{"colour": 1}"#, path: "c.json")
        }
        #expect(throws: ConfigError(path: "c.json", line: 1, message: "gpio.leds.blue: unknown field (known here: nod, shake, north, up, down, left, right, status)")) {
            try Config.parse(#"{"gpio": {"leds": {"blue": 3}}}"#, path: "c.json")
        }
        #expect(throws: ConfigError(path: "c.json", line: 1, message: "stream.port: unknown field (known here: socket, stateHz)")) {
            try Config.parse(#"{"stream": {"port": 80}}"#, path: "c.json")
        }
        #expect(throws: ConfigError(path: "c.json", line: 1, message: "rates: expected an object")) {
            try Config.parse(#"{"rates": 200}"#, path: "c.json")
        }
    }

    @Test func ledNamesAreTheLedEnum() {
        #expect(Config.ledNames == ["nod", "shake", "north", "up", "down", "left", "right", "status"])
        #expect(Config.keys.filter { $0.path.hasPrefix("gpio.leds.") }.map { String($0.path.dropFirst(10)) } == Config.ledNames)
    }
}

