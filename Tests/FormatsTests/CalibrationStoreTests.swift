#if canImport(Glibc)
import Glibc
#endif
import Fusion
import SensorCalibration
import Geometry
import Testing
@testable import Formats
import TestSupport

@Suite struct CalibrationStoreTests {
    let sample = Calibration(
        gyroBias: Vector3(0.0123, -0.0045, 0.00067),
        magnetometer: MagnetometerCorrection(
            hardIron: Vector3(23.5, -41.25, 12.125),
            softIron: Matrix3(rows: Vector3(1.05, 0.02, -0.01), Vector3(0.02, 0.97, 0.015), Vector3(-0.01, 0.015, 0.985))),
        magnetometerFit: .init(fieldStrength: 48.2, relativeResidual: 0.008, coverage: 0.86, samples: 4200),
        createdUnixTime: 1_795_000_000)

    @Test func savedCalibrationReadsBackExactly() throws {
        let store = CalibrationStore(path: temporaryDirectory("calibration") + "/calibration.json")
        try store.save(sample)
        let loaded = try store.load()
        #expect(loaded == sample)
        #expect(loaded.version == Calibration.currentVersion)
    }

    @Test func savingAgainKeepsThePreviousFile() throws {
        let store = CalibrationStore(path: temporaryDirectory("calibration") + "/calibration.json")
        try store.save(sample)
        var newer = sample
        newer.gyroBias = Vector3(0.001, 0.002, 0.003)
        try store.save(newer)
        #expect(try store.load() == newer)
        #expect(try CalibrationStore(path: store.previousPath).load() == sample)
    }

    @Test func truncatedFileIsRejectedAndTheCalibrationInUseStays() throws {
        let store = CalibrationStore(path: temporaryDirectory("calibration") + "/calibration.json")
        try store.save(sample)
        // A power cut in the middle of a write by some other tool: half a file.
        let text = CalibrationStore.encode(sample)
        try FileIO.writeAtomically(store.path, Array(text.utf8.prefix(text.utf8.count / 2)))
        do {
            _ = try store.load()
            Issue.record("a truncated file was accepted")
        } catch {
            #expect(error.description.contains("corrupt or truncated"))
            #expect(error.description.contains("headtrack calibrate"))
            #expect(error.description.contains(store.path))
        }
        let (inUse, problem) = store.loadKeepingCurrent(sample)
        #expect(inUse == sample)
        #expect(problem?.contains("keeping the calibration already in use") == true)
    }

    @Test func corruptValuesAreRejected() {
        let cases = [
            "",
            "not json",
            "{\"version\": 1}",
            "{\"version\": 1, \"gyroBias\": [0, 0], \"magnetometer\": {\"hardIron\": [0, 0, 0], \"softIron\": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}}",
            "{\"version\": 1, \"gyroBias\": [0, 0, 0], \"magnetometer\": {\"hardIron\": [0, 0, \"x\"], \"softIron\": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}}",
            // A soft-iron matrix that folds space cannot come from a fit.
            "{\"version\": 1, \"gyroBias\": [0, 0, 0], \"magnetometer\": {\"hardIron\": [0, 0, 0], \"softIron\": [[-1, 0, 0], [0, 1, 0], [0, 0, 1]]}}",
        ]
        for text in cases {
            #expect(throws: CalibrationError.self, "accepted: \(text)") { try CalibrationStore.decode(text) }
        }
    }

    @Test func otherVersionSaysToCalibrateAgain() {
        let text = CalibrationStore.encode(sample).replacing("\"version\": 1", with: "\"version\": 7")
        do {
            _ = try CalibrationStore.decode(text)
            Issue.record("version 7 was accepted")
        } catch {
            #expect(error.message.contains("version 7"))
            #expect(error.message.contains("headtrack calibrate"))
        }
    }

    @Test func missingFileFallsBackToPreviousThenToNone() throws {
        let dir = temporaryDirectory("calibration")
        let store = CalibrationStore(path: dir + "/calibration.json")
        #expect(store.loadKeepingCurrent(nil).calibration == .none)
        try CalibrationStore(path: store.previousPath).save(sample)
        let (c, problem) = store.loadKeepingCurrent(nil)
        #expect(c == sample)
        #expect(problem?.contains("previous") == true)
    }

    /// A calibration file with its fit's sample count left as SAMPLES.
    static let goodCalibration = """
        {"version": 1, "gyroBias": [0.01, 0, 0],
         "magnetometer": {"hardIron": [10, -20, 30], "softIron": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]},
         "magnetometerFit": {"fieldStrength": 48, "relativeResidual": 0.01, "coverage": 0.8, "samples": SAMPLES}}
        """

    // Once "samples": 1e19 / 1e400 / -1e19 trapped converting to Int (and `run` decodes the same file).
    @Test(arguments: ["1e19", "1e400", "-1e19", "17.5", "\"many\""])
    func calibrationSampleCountOutOfRangeIsRefused(samples: String) throws {
        let text = CalibrationStoreTests.goodCalibration.replacingOccurrences("SAMPLES", samples)
        #expect(throws: CalibrationError.self) { try CalibrationStore.decode(text, path: "cal.json") }
        do { _ = try CalibrationStore.decode(text, path: "cal.json") } catch {
            #expect(error.description.hasPrefix("cal.json:3: "), "the file, and the line of the count")
            #expect(error.description.contains("magnetometerFit.samples"))
        }
        // The same text with a sane count is accepted: the refusal is about the number, not the file.
        #expect(try CalibrationStore.decode(CalibrationStoreTests.goodCalibration.replacingOccurrences("SAMPLES", "5120"))
            .magnetometerFit?.samples == 5120)
    }

    /// What the daemon does with such a file: runs uncalibrated with a message, instead of crash-looping.
    @Test func daemonRunsUncalibratedOnAnOutOfRangeFile() throws {
        let dir = temporaryDirectory("hostile")
        let store = CalibrationStore(path: dir + "/calibration.json")
        try FileIO.writeAtomically(store.path, Array(CalibrationStoreTests.goodCalibration.replacingOccurrences("SAMPLES", "1e19").utf8))
        let (calibration, problem) = store.loadKeepingCurrent(nil)
        #expect(calibration == .none)
        #expect(problem?.contains("running uncalibrated") == true)
    }

    @Test func calibrationFieldsOutsidePlausibleRangesAreRefused() {
        let base = CalibrationStoreTests.goodCalibration.replacingOccurrences("SAMPLES", "10")
        for (from, to) in [("[0.01, 0, 0]", "[1e300, 0, 0]"), ("[10, -20, 30]", "[10, -20, 1e9]"),
                           ("\"coverage\": 0.8", "\"coverage\": 7"), ("\"version\": 1", "\"version\": 1.0000001")] {
            let text = base.replacingOccurrences(from, to)
            #expect(text != base)
            #expect(throws: CalibrationError.self, "\(to) accepted") { try CalibrationStore.decode(text) }
        }
    }
}
