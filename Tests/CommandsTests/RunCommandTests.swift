import Formats
import Testing
import TestSupport

/// `run --simulated` through the built binary: the options it refuses and the calibration it reports.
@Suite struct RunCommandTests {
    typealias P = HeadtrackProcess

    // Once `run --simulated` ignored --i2c, --gpio-chip and the config's calibrationFile.
    @Test func runSimulatedRefusesHardwareOptionsAndReportsTheCalibration() throws {
        for option in ["--i2c", "--gpio-chip"] {
            let r = P.run(["run", "--simulated", "--duration", "0.1", option, "x"])
            #expect(r.status == 2 && r.stderr.contains("\(option) does not apply to run --simulated"), "\(r.stderr)")
        }
        let dir = temporaryDirectory("newuser")
        try FileIO.writeAtomically(dir + "/calibration.json", Array(#"{"version": 1, "gyroBias": [0, 0"#.utf8))
        try FileIO.writeAtomically(dir + "/config.json", Array(#"{"calibrationFile": "\#(dir)/calibration.json"}"#.utf8))
        let r = P.run(["run", "--simulated", "--duration", "0.5", "--config", dir + "/config.json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect((r.stdout + r.stderr).contains("\(dir)/calibration.json"), "\(r.stdout)\n\(r.stderr)")
        #expect((r.stdout + r.stderr).contains("running uncalibrated"), "\(r.stdout)\n\(r.stderr)")
    }

    @Test func aNegativeOrZeroDurationIsRefused() {
        for d in ["-5", "0", "1e30"] {
            let r = P.run(["run", "--simulated", "--duration", d])
            #expect(r.status == 2, "\(d)")
            #expect(r.stderr.contains("--duration must be a time in seconds from 0.001 up to a year"), "\(d)")
            #expect(!r.stdout.contains("in real time"), "\(d)")
        }
    }
}
