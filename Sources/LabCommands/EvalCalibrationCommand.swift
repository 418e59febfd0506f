import Service
import Commands
import Evaluation
import Fusion
import Tracking
import Formats

/// `headtrack eval calibration`: does `calibrate --trace` accept the recordings it should, and does the
/// calibration it makes give back the heading when the recording is put under a known hard and soft iron?
public enum EvalCalibrationCommand {
    public static let topic = "calibration"
    public static let summary = "magnetometer calibration on recordings: accepted or refused, and heading RMSE with known distortions"
    public static let help = """
        usage: headtrack eval calibration PATH... [--clean-only] [--random N [--seed S]]
               headtrack eval calibration --background PATH... [--random N [--seed S]]

        For each imu-trace v1 file with magnetometer and truth columns (a directory means every *.csv in it):
          1. calibrates from the recording as it is, with the stop rule of 'headtrack calibrate --trace
             --skip-gyro', and scores the 9D heading RMSE without and with that calibration;
          2. puts each of three known distortions on its magnetometer (about 30 µT hard iron, ±20 % axis gains,
             symmetric cross terms up to 0.12), calibrates from the distorted recording, and scores the heading
             uncalibrated (the negative control) and calibrated, next to the clean recording's.
        A refusal prints its reason. The summary line gives calibrated − clean heading RMSE over the accepted
        distorted runs.

        --background measures the background calibration instead (no calibration file, replayed as
        'headtrack replay' runs it): the recording as it is with it off and on (its cost where nothing is
        wrong, whole trial), each distortion from the start (heading from 60 s on), and each distortion
        appearing at 60 s (heading from 120 s on), every figure against the clean recording with it off.
        The summary lines check the targets: rotation trials within +2° each and +0.5° on average; no cost
        above 0.1° on average and 0.5° on any undisturbed or disturbed trial.

        options:
          --clean-only   skip step 2
          --background   the background calibration's evaluation (above)
          --random N     use N random distortions of the same size (30 µT hard iron in a random direction,
                         gains ±20 %, cross terms ±0.12) instead of the three fixed ones
          --seed S       seed for --random (default 1)

        example:
          headtrack eval calibration ../shared/data/attitude
        """

    public static func run(_ arguments: inout Arguments) throws -> Int32 {
        let cleanOnly = arguments.flag("clean-only")
        let background = arguments.flag("background")
        let randomCount = try arguments.double("random")
        let seed = try arguments.double("seed") ?? 1
        if let n = randomCount, !(n >= 1 && n <= 100 && n == n.rounded()) {
            throw CommandError("--random must be a whole number from 1 to 100", status: 2)
        }
        guard seed >= 0 && seed <= 1e15 && seed == seed.rounded() else {
            throw CommandError("--seed must be a whole number from 0 to 10^15", status: 2)
        }
        let distortions = cleanOnly ? [] : randomCount.map { MagnetometerDistortion.random(count: Int($0), seed: UInt64(seed)) }
            ?? MagnetometerDistortion.standard
        let paths = try arguments.positionals()
        guard !paths.isEmpty else {
            throw CommandError("name trace files or a directory (e.g. ../shared/data/attitude)", status: 2)
        }
        if background && cleanOnly { throw CommandError("--clean-only is for the guided mode; --background has no such step", status: 2) }
        var rows: [CalibrationEvaluation.Row] = []
        var backgroundRows: [BackgroundCalibrationEvaluation.Row] = []
        for file in try EvalAttitudeCommand.expand(paths) {
            let trace: Trace
            do { trace = try TraceFile.read(path: file) } catch { throw CommandError(error.description) }
            guard trace.hasMagnetometer, trace.records.contains(where: { $0.truth != nil && $0.moving == true }) else {
                throw CommandError("\(file) needs magnetometer and truth columns (mx,my,mz and qw,qx,qy,qz,moving)")
            }
            let name = AttitudeEvaluation.trialName(path: file)
            if background {
                Console.err("eval calibration --background: \(name)")
                backgroundRows += BackgroundCalibrationEvaluation.rows(trace: trace, name: name, distortions: distortions)
            } else {
                rows += CalibrationEvaluation.rows(trace: trace, name: name, distortions: distortions)
            }
        }
        Console.write(1, background ? BackgroundCalibrationEvaluation.table(backgroundRows) : CalibrationEvaluation.table(rows))
        return 0
    }
}
