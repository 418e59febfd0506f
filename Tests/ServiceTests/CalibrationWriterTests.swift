#if canImport(Glibc)
import Glibc
#endif
import Testing
import SensorCalibration
import Geometry
import Formats
@testable import Service
import TestSupport

/// The learned calibration's writer thread: what the loop offers is saved whole, the latest value wins within
/// the rate limit, `finish` writes what waits, and the file reads back as what was offered.
@Suite struct CalibrationWriterTests {
    func calibration(_ x: Double) -> Calibration {
        Calibration(gyroBias: Vector3(0.001, 0, 0),
                    magnetometer: MagnetometerCorrection(hardIron: Vector3(x, -12, 8),
                                                         softIron: Matrix3(rows: Vector3(1.1, 0.02, 0), Vector3(0.02, 0.9, 0), Vector3(0, 0, 1))),
                    magnetometerFit: .init(fieldStrength: 44.3, relativeResidual: 0.018, coverage: 0.52, samples: 312))
    }

    @Test func offeredCalibrationIsSavedAndReadsBack() throws {
        let dir = temporaryDirectory("writer")
        let path = dir + "/calibration.learned.json"
        let writer = CalibrationWriter(path: path, minimumInterval: 30, warn: { Issue.record("warning: \($0)") })
        #expect(writer.offer(calibration(26)))
        writer.finish()
        #expect(writer.saves == 1)
        let saved = try CalibrationStore(path: path).load()
        #expect(saved.magnetometer == calibration(26).magnetometer)
        #expect(saved.gyroBias == calibration(26).gyroBias)
        #expect(saved.magnetometerFit == calibration(26).magnetometerFit)
        #expect((saved.createdUnixTime ?? 0) > 1.7e9, "the writer stamps the time it saved")
    }

    @Test func withinTheIntervalTheLatestValueWinsAndFinishWritesIt() throws {
        let dir = temporaryDirectory("writer")
        let path = dir + "/calibration.learned.json"
        let writer = CalibrationWriter(path: path, minimumInterval: 3600, warn: { Issue.record("warning: \($0)") })
        #expect(writer.offer(calibration(1)))
        // Wait for the first save (at once: nothing was saved before), then offer three more within the hour.
        for _ in 0..<2000 where writer.saves == 0 { usleep(1000) }
        #expect(writer.saves == 1)
        for x in [2.0, 3, 4] { while !writer.offer(calibration(x)) {} }
        usleep(50_000)
        #expect(writer.saves == 1, "the rate limit holds the later values back")
        writer.finish()
        #expect(writer.saves == 2, "finish writes the latest, once")
        #expect(try CalibrationStore(path: path).load().magnetometer.hardIron.x == 4)
        // The one before is kept beside it, whole.
        #expect(try CalibrationStore(path: path + ".previous").load().magnetometer.hardIron.x == 1)
    }

    @Test func finishSavesTheLastValueHandedToIt() throws {
        // The end of a replay: the latest learned value, never offered (or offered while the writer held the
        // lock), goes to `finish`, which waits for the lock instead of the caller spinning on `offer`.
        let dir = temporaryDirectory("writer")
        let path = dir + "/calibration.learned.json"
        let writer = CalibrationWriter(path: path, minimumInterval: 3600, warn: { Issue.record("warning: \($0)") })
        writer.finish(saving: calibration(7))
        #expect(writer.saves == 1)
        #expect(try CalibrationStore(path: path).load().magnetometer.hardIron.x == 7)
    }

    @Test func aWriteThatFailsIsAWarningNotACrash() {
        nonisolated(unsafe) var warnings: [String] = []
        let writer = CalibrationWriter(path: "/nonexistent-dir/calibration.learned.json", minimumInterval: 0,
                                       warn: { warnings.append($0) })
        #expect(writer.offer(calibration(5)))
        writer.finish()
        #expect(writer.saves == 0)
        #expect(warnings.count == 1 && warnings[0].contains("could not save the learned calibration"), "\(warnings)")
    }

    @Test func statusLineSaysLearningOrCalibrated() {
        #expect(CalibrationReports.compassText(MagnetometerAutoCalibration()) == "compass learning")
        let fromFile = MagnetometerAutoCalibration(starting: calibration(26), fromFile: true)
        #expect(CalibrationReports.compassText(fromFile) == "compass calibrated (fit error 1.8 %, 52 % of directions)")
    }
}
