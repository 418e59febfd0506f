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
    // The forms under "also:" are not in the README's usage block yet (ReadmeUsageTests compares it with the
    // block before the first blank line): they join it when the README, whose sections are being moved into
    // docs/, can be edited again.
    public static let help = options.help("""
        usage: headtrack eval calibration PATH... [--clean-only] [--random N [--seed S]]
               headtrack eval calibration --background PATH... [--random N [--seed S]]

        also:  headtrack eval calibration --background --loso PATH... [--seeds N] [--seed S] [--grid G]
               headtrack eval calibration --daily PATH... [--fresh] [--json]

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

        --loso validates the background calibration's three tuned settings (samples per region, coverage to
        establish, fraction to replace) leaving one trial out: for each trial, the values are chosen from a
        grid of 27 (each at today's value and a step either side) by their runs on the other trials only
        (fewest runs beyond +2° under an iron or +0.5° with none, then the smallest mean excess), and the
        held-out trial is scored with them, beside today's values. Each trial gets N random irons (hard
        10-60 µT in a random direction, soft axis gains 0.8-1.25 about random axes; seed S plus the trial's
        number), each from the start, each replaced by the next at 60 s, and no iron. It replays every trial
        27 × (2N + 1) times: about 5 minutes for nine BROAD trials with N = 4 on one core. --grid judging
        chooses the two scores that judge a correction instead (below 0.08 it explains the field, above 0.16
        it contradicts it; each at today's value and a step either side, 9 candidates, the rest today's: a third
        of the replays).

        --daily measures the background calibration on real worn recordings with no heading truth (e.g.
        ../shared/data/daily/classyglass: glasses with a raw magnetometer), replayed as 'run' ships it with
        no calibration file at the start. Each wearer's files (cg<study>_u<user>_*, in name order) form one
        session: the pipeline resets between files and keeps what was learned, as 'run' keeps its learned
        calibration across restarts; --fresh starts every file from nothing instead. Judged by physics, per
        activity (cg*_u*_e*_ACTIVITY.csv): seconds until a correction is established; changes of the correction,
        forgettings and heading restarts per established hour; then, under the correction in use, the spread
        of the field's strength about its median (%), of its dip (°), and of its azimuth in the
        gyro-and-gravity frame over 2 s windows where the head turns 30° or more (all constant for a right
        calibration in a still room); and the largest shift of the heading reference at a change.
        """, outro: """
        examples:
          headtrack eval calibration ../shared/data/attitude
          headtrack eval calibration --daily ../shared/data/daily/classyglass
        """)

    public static let options = OptionTable(helpColumn: 17, [
        .flag("clean-only", "skip step 2"),
        .flag("background", "the background calibration's evaluation (above)"),
        .flag("daily", "the daily-life evaluation (above); files need a magnetometer, not truth"),
        .flag("loso", "with --background: the leave-one-trial-out validation (above)"),
        .value("seeds", "N", "with --loso: random irons per trial (default 4, at most 50)", allowed: .wholeNumbers(1...50)),
        .value("grid", "G", "with --loso: tuned (default) or judging (above)",
               allowed: .words(BackgroundCalibrationLOSO.Grid.allCases.map(\.rawValue))),
        .flag("fresh", "with --daily: every file from nothing learned, not one session per wearer"),
        .flag("json", "with --daily: per-recording and per-activity figures as JSON instead of the table"),
        .value("random", "N", """
            use N random distortions of the same size (30 µT hard iron in a random direction,
            gains ±20 %, cross terms ±0.12) instead of the three fixed ones
            """, allowed: .wholeNumbers(1...100)),
        .value("seed", "S", "seed for --random (default 1)", allowed: .wholeNumbers(0...1_000_000_000_000_000)),
    ])

    public static func run(_ arguments: inout Arguments) throws -> Int32 {
        let cleanOnly = arguments.flag("clean-only")
        let background = arguments.flag("background")
        let daily = arguments.flag("daily")
        let asJSON = arguments.flag("json")
        let fresh = arguments.flag("fresh")
        let loso = arguments.flag("loso")
        let seeds = try arguments.integer("seeds")
        let gridName = try arguments.option("grid")
        let randomCount = try arguments.integer("random")
        let seed = UInt64(try arguments.integer("seed") ?? 1)
        let distortions = cleanOnly ? [] : randomCount.map { MagnetometerDistortion.random(count: $0, seed: seed) }
            ?? MagnetometerDistortion.standard
        let paths = try arguments.positionals()
        guard !paths.isEmpty else {
            throw CommandError("name trace files or a directory (e.g. ../shared/data/attitude)", status: 2)
        }
        if background && cleanOnly { throw CommandError("--clean-only is for the guided mode; --background has no such step", status: 2) }
        if daily {
            if background || cleanOnly || randomCount != nil {
                throw CommandError("--daily replays recordings as they are: it takes no --background, --clean-only or --random", status: 2)
            }
            return try runDaily(paths, sessions: !fresh, asJSON: asJSON)
        }
        if asJSON || fresh { throw CommandError("--json and --fresh go with --daily", status: 2) }
        if (loso || seeds != nil || gridName != nil) && !background {
            throw CommandError("--loso, --seeds and --grid go with --background", status: 2)
        }
        if loso {
            if randomCount != nil { throw CommandError("--loso draws its own irons: give their number with --seeds, not --random", status: 2) }
            let grid = gridName.flatMap(BackgroundCalibrationLOSO.Grid.init(rawValue:)) ?? .tuned
            return try runLOSO(paths, irons: seeds ?? 4, seed: seed, grid: grid)
        }
        if seeds != nil || gridName != nil { throw CommandError("--seeds and --grid go with --loso", status: 2) }
        var rows: [CalibrationEvaluation.Row] = []
        var backgroundRows: [BackgroundCalibrationEvaluation.Row] = []
        for file in try EvalAttitudeCommand.expand(paths) {
            let trace = try EvalAttitudeCommand.readNineAxisWithTruth(file)
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

    /// `--daily`: every file through `DailyCalibrationEvaluation`, one session per wearer unless `sessions` is
    /// false; progress on stderr.
    static func runDaily(_ paths: [String], sessions: Bool, asJSON: Bool) throws -> Int32 {
        let files = try EvalAttitudeCommand.expand(paths)
        var groups: [[String]] = []
        var people: [String: Int] = [:]
        for file in files {
            let key = sessions ? DailyCalibrationEvaluation.person(ofFile: file) : file
            if let k = people[key] { groups[k].append(file) } else { people[key] = groups.count; groups.append([file]) }
        }
        var recordings: [DailyCalibrationEvaluation.Recording] = []
        var done = 0
        for group in groups {
            var traces: [Trace] = []
            for file in group {
                done += 1
                Console.err("eval calibration --daily: \(done)/\(files.count) \(file)")
                let trace: Trace
                do { trace = try TraceFile.read(path: file) } catch { throw CommandError(error.description) }
                guard trace.hasMagnetometer else { throw CommandError("\(file) has no magnetometer samples (mx,my,mz)") }
                if trace.records.contains(where: { $0.window != nil }) {
                    throw CommandError("\(file) is a set of windows (a window column): --daily needs one continuous recording per file")
                }
                traces.append(trace)
            }
            let parts = group.map { (AttitudeEvaluation.trialName(path: $0), DailyCalibrationEvaluation.activity(ofFile: $0)) }
            let trace = traces.count == 1 ? traces[0] : DailyCalibrationEvaluation.session(traces)
            recordings += DailyCalibrationEvaluation.evaluate(trace: trace, parts: parts)
        }
        Console.write(1, asJSON ? DailyCalibrationReport.json(recordings) : DailyCalibrationReport.table(recordings, sessions: sessions))
        return 0
    }

    /// `--background --loso`: every candidate on every trial, then the held-out choice per trial.
    static func runLOSO(_ paths: [String], irons: Int, seed: UInt64, grid: BackgroundCalibrationLOSO.Grid) throws -> Int32 {
        let files = try EvalAttitudeCommand.expand(paths)
        guard files.count >= 2 else { throw CommandError("--loso needs at least two trials to leave one out", status: 2) }
        let candidates = grid.candidates
        var runs = [[[BackgroundCalibrationLOSO.Run]]](repeating: [], count: candidates.count)
        var names: [String] = []
        for (t, file) in files.enumerated() {
            let trace = try EvalAttitudeCommand.readNineAxisWithTruth(file)
            names.append(AttitudeEvaluation.trialName(path: file))
            let ironSet = BackgroundCalibrationLOSO.randomIrons(count: irons, seed: seed &+ UInt64(t))
            let reference = BackgroundCalibrationLOSO.reference(trace)
            for (c, candidate) in candidates.enumerated() {
                Console.err("eval calibration --loso: trial \(t + 1)/\(files.count) candidate \(c + 1)/\(candidates.count)")
                runs[c].append(BackgroundCalibrationLOSO.runs(trace: trace, irons: ironSet, candidate: candidate, reference: reference))
            }
        }
        Console.write(1, BackgroundCalibrationLOSOReport.table(.init(trials: names, candidates: candidates, runs: runs,
                                                                     ironsPerTrial: irons, seed: seed, grid: grid)))
        return 0
    }
}
