import Testing
import SensorCalibration
import Geometry
@testable import Formats

/// The background calibration's switch in the config, and where its state lives.
@Suite struct AutoCalibrationConfigTests {
    @Test func onByDefaultAndOffWithCalibrationAutoFalse() throws {
        #expect(try Config.parse("{}").autoCalibration)
        #expect(try Config.parse("{}").pipelineSettings.autoCalibration != nil)
        let off = try Config.parse(#"{"calibration": {"auto": false}}"#)
        #expect(!off.autoCalibration)
        #expect(off.pipelineSettings.autoCalibration == nil)
    }

    @Test func badValuesAreRejectedWithTheirPath() {
        #expect(throws: ConfigError(path: "config", line: 1, message: "calibration.auto: expected true or false")) {
            try Config.parse(#"{"calibration": {"auto": "no"}}"#)
        }
        #expect(throws: ConfigError(path: "config", line: 1, message: "calibration.file: unknown field (known here: auto)")) {
            try Config.parse(#"{"calibration": {"file": "/tmp/x"}}"#)
        }
    }

    @Test func learnedFileLivesBesideTheCalibrationFile() {
        #expect(CalibrationStore.learnedPath(beside: "/var/lib/headtrack/calibration.json") == "/var/lib/headtrack/calibration.learned.json")
        #expect(CalibrationStore.learnedPath(beside: "/srv/cal") == "/srv/cal.learned")
    }

    @Test func theNewerOfGuidedAndLearnedIsTheStart() {
        let guided = Calibration(magnetometer: MagnetometerCorrection(hardIron: Vector3(1, 2, 3)), createdUnixTime: 1_700_000_000)
        var learned = Calibration(magnetometer: MagnetometerCorrection(hardIron: Vector3(4, 5, 6)), createdUnixTime: 1_700_000_100)
        #expect(CalibrationStore.newer(guided: guided, learned: learned) == learned)
        // A guided calibration made after the learned one (the wearer ran calibrate again) wins.
        learned.createdUnixTime = 1_600_000_000
        #expect(CalibrationStore.newer(guided: guided, learned: learned) == guided)
        #expect(CalibrationStore.newer(guided: nil, learned: learned) == learned)
        #expect(CalibrationStore.newer(guided: guided, learned: nil) == guided)
        // A file without a time is older than one with a time.
        learned.createdUnixTime = nil
        #expect(CalibrationStore.newer(guided: guided, learned: learned) == guided)
    }
}
