import Geometry
import SensorCalibration
import Testing
@testable import Formats
import TestSupport

/// The session plan: which mount a session uses and from where, which calibration it starts from and from
/// where, where the background calibration saves, and what the command line puts over the config. Every case
/// builds its own state directory; the expected values are the ones written there, or the lines the daemon
/// printed for the same files before the plan existed.
@Suite struct SessionPlanTests {
    /// A config whose calibration file (not written) is in a fresh directory, with the state files beside it.
    func config(in dir: String) -> Config {
        var config = Config()
        config.calibrationFile = dir + "/calibration.json"
        return config
    }

    @Test func theConfigsMountWinsOverTheLearnedFile() throws {
        let dir = temporaryDirectory("plan")
        writeText(#"{"version": 1, "mount": "-x,z,y"}"#, to: dir + "/mount.json")
        var file = config(in: dir)
        file.mount = try Mount(parsing: "y,-x,z")
        var warnings: [String] = []
        let plan = SessionPlan(config: file, reading: [.mount, .calibration], warn: { warnings.append($0) })
        #expect(plan.mount.source == .config)
        #expect(plan.mount.mount?.argument == "y,-x,z" && plan.mount.file == nil)
        #expect(plan.config.mount?.argument == "y,-x,z")
        #expect(plan.mount.summary == "y,-x,z (config)")
        #expect(warnings.isEmpty)
    }

    @Test func theLearnedFileIsUsedWhenTheConfigNamesNone() throws {
        let dir = temporaryDirectory("plan")
        writeText(#"{"version": 1, "mount": "-x,z,y"}"#, to: dir + "/mount.json")
        var warnings: [String] = []
        let plan = SessionPlan(config: config(in: dir), reading: .mount, warn: { warnings.append($0) })
        #expect(plan.mount.source == .learned)
        #expect(plan.mount.file == dir + "/mount.json")
        #expect(plan.mount.mount?.argument == "-x,z,y")
        // The pipeline runs with it: the config the plan hands on carries it.
        #expect(plan.config.pipelineSettings.mount?.argument == "-x,z,y")
        #expect(plan.mount.summary == "-x,z,y (learned, \(dir)/mount.json)")
        #expect(warnings.isEmpty)
    }

    @Test func noFileAndNoConfigMountIsNoneWithoutAWord() {
        let dir = temporaryDirectory("plan")
        var warnings: [String] = []
        let plan = SessionPlan(config: config(in: dir), reading: .mount, warn: { warnings.append($0) })
        #expect(plan.mount == MountInUse(mount: nil, source: .none))
        #expect(plan.config.mount == nil)
        #expect(warnings.isEmpty)
    }

    @Test func anUnreadableMountFileIsOneWarningAndNoMount() {
        let dir = temporaryDirectory("plan")
        writeText(#"{"version": 1, "mount": "x,y"#, to: dir + "/mount.json")
        var warnings: [String] = []
        let plan = SessionPlan(config: config(in: dir), reading: .mount, warn: { warnings.append($0) })
        #expect(plan.mount == MountInUse(mount: nil, source: .none))
        #expect(plan.config.mount == nil)
        // The line `run` wrote to the journal for this file before the plan existed.
        #expect(warnings == ["headtrack: \(dir)/mount.json: not valid JSON at line 1, column 29: unterminated string "
            + "(corrupt or truncated mount file: run 'headtrack calibrate --mount' again); running without a mount"])
    }

    @Test func aCommandThatReadsNoStateFileNeitherUsesNorJudgesTheMountFile() throws {
        let dir = temporaryDirectory("plan")
        writeText(#"{"version": 1, "mount": "x,y"#, to: dir + "/mount.json")
        let plan = SessionPlan(config: config(in: dir))
        #expect(plan.mount == MountInUse(mount: nil, source: .none))
        #expect(plan.calibration == nil && plan.learnedCalibration == nil)
        // Where `calibrate --mount` writes by default: the file `run` reads.
        #expect(plan.mountFile == dir + "/mount.json")
    }

    @Test func theCommandLineOverridesTheConfig() {
        let dir = temporaryDirectory("plan")
        var file = config(in: dir)
        file.i2cDevice = "/dev/i2c-3"
        file.gpioChip = "gpiochip9"
        file.rates.imuHz = 100
        file.rates.magHz = 50
        file.streamSocket = "/run/configured.sock"
        var overrides = SessionPlan.Overrides()
        overrides.i2cDevice = "/dev/i2c-20"
        overrides.gpioChip = "pinctrl-rp1"
        overrides.imuHz = 400
        overrides.socket = "/tmp/named.sock"
        let plan = SessionPlan(config: file, overrides: overrides)
        #expect(plan.config.i2cDevice == "/dev/i2c-20")
        #expect(plan.config.gpioChip == "pinctrl-rp1")
        #expect(plan.rates.imuHz == 400 && plan.config.rates.imuHz == 400)
        #expect(plan.socket == "/tmp/named.sock")
        // What the command line did not name stays the file's.
        #expect(plan.rates.magHz == 50)
        #expect(plan.config.streamSocket == "/run/configured.sock")
        let plain = SessionPlan(config: file)
        #expect(plain.config.i2cDevice == "/dev/i2c-3" && plain.config.gpioChip == "gpiochip9" && plain.rates.imuHz == 100)
        #expect(plain.socket == nil)
    }

    @Test func theLearnedCalibrationIsKeptBesideTheCalibrationFileWhenAutoCalibrationIsOn() {
        let dir = temporaryDirectory("plan")
        var file = config(in: dir)
        let on = SessionPlan(config: file, reading: [.mount, .calibration], warn: { _ in })
        #expect(on.learnedCalibration == dir + "/calibration.learned.json")
        file.autoCalibration = false
        #expect(SessionPlan(config: file, reading: [.mount, .calibration], warn: { _ in }).learnedCalibration == nil)
        // `run --simulated` without --config reads no calibration file, so it saves none either.
        file.autoCalibration = true
        #expect(SessionPlan(config: file, reading: .mount, warn: { _ in }).learnedCalibration == nil)
    }

    @Test func theStartingCalibrationIsTheNewerOfTheGuidedAndTheLearnedFile() throws {
        let dir = temporaryDirectory("plan")
        let guided = Calibration(gyroBias: Vector3(0.01, 0, 0), createdUnixTime: 1_700_000_000)
        let learned = Calibration(gyroBias: Vector3(0.02, 0, 0),
                                  magnetometerFit: .init(fieldStrength: 48, relativeResidual: 0.012, coverage: 0.61, samples: 900),
                                  createdUnixTime: 1_800_000_000)
        try CalibrationStore(path: dir + "/calibration.json").save(guided)
        let plan = SessionPlan(config: config(in: dir), reading: [.mount, .calibration], warn: { _ in })
        #expect(plan.calibration == StartingCalibration(calibration: guided, source: .guided(file: dir + "/calibration.json"), notes: []))
        try CalibrationStore(path: dir + "/calibration.learned.json").save(learned)
        let start = try #require(SessionPlan(config: config(in: dir), reading: [.mount, .calibration], warn: { _ in }).calibration)
        #expect(start.calibration == learned)
        #expect(start.source == .learned(file: dir + "/calibration.learned.json"))
        #expect(start.notes == [.info("headtrack: starting from the calibration learned while worn, \(dir)/calibration.learned.json "
            + "(fit error 1.2 %, 61 % of directions)")])
    }

    @Test func aBadOrMissingCalibrationFileIsANoteForTheSessionNotAStop() throws {
        let dir = temporaryDirectory("plan")
        var file = config(in: dir)
        file.autoCalibration = false
        let missing = try #require(SessionPlan(config: file, reading: [.mount, .calibration], warn: { _ in }).calibration)
        #expect(missing.calibration == .none && missing.source == .none)
        #expect(missing.notes == [.warning("headtrack: no calibration at \(dir)/calibration.json: running uncalibrated "
            + "(run 'headtrack calibrate' once)")])
        // A corrupt file with a good previous one: the previous, and one warning that says so.
        let previous = Calibration(gyroBias: Vector3(0, 0.03, 0), createdUnixTime: 1_700_000_000)
        try CalibrationStore(path: dir + "/calibration.json.previous").save(previous)
        writeText("garbage", to: dir + "/calibration.json")
        let fallback = try #require(SessionPlan(config: file, reading: [.mount, .calibration], warn: { _ in }).calibration)
        #expect(fallback.calibration == previous)
        #expect(fallback.source == .guided(file: dir + "/calibration.json.previous"))
        #expect(fallback.notes.count == 1)
        if case let .warning(line) = fallback.notes.first {
            #expect(line.hasPrefix("headtrack: \(dir)/calibration.json:1: not valid JSON"))
            #expect(line.hasSuffix("; using the previous calibration \(dir)/calibration.json.previous. Run 'headtrack calibrate' to make a new one."))
        } else {
            Issue.record("expected a warning, got \(fallback.notes)")
        }
    }
}
