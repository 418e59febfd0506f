import Service
import LibC
import Commands
import Evaluation
import Geometry
import Tracking
import Formats
import SensorCalibration

/// `headtrack eval attitude`: the BROAD attitude benchmark (or any trace with truth columns).
public enum EvalAttitudeCommand {
    public static let topic = "attitude"
    public static let summary = "attitude RMSE (total, heading, inclination) against recorded or synthetic truth"
    public static let help = options.help("""
        usage: headtrack eval attitude PATH... [--mode 9d|6d|both] [--calibration FILE] [--json]
               headtrack eval attitude --synthetic [--mode 9d|6d|both] [--json]
               headtrack eval attitude --loso PATH... [--seeds N [--seed S]] [--calibration FILE] [--json]

        Runs the attitude filter causally (default settings) over each imu-trace v1 file with truth columns
        (a directory means every *.csv in it) and prints, per trial and per group, the RMSE in degrees of
          total        2·acos(|e_w|)
          heading      2·atan(|e_z / e_w|)
          inclination  2·acos(√(e_w² + e_z²))
        with e = q_est ⊗ q_true⁻¹, over the samples with moving = 1 and a truth quaternion. A group's figure
        is the plain mean of its trials' RMSEs; trials group by file name (*undisturbed* / *disturbed*).
        In 6D mode (no magnetometer) one constant heading offset per trial, the circular mean of the heading
        error, is removed before scoring.
        """, outro: """
        example:
          headtrack eval attitude ../shared/data/attitude --mode 9d
        """)

    public static let options = OptionTable(helpColumn: 16, [
        .value("mode", "M", "9d (with magnetometer), 6d, or both (default both)", allowed: .words(["9d", "6d", "both"])),
        .value("calibration", "FILE", """
            apply this calibration file (gyro bias, magnetometer hard/soft iron) to every trace's
            raw samples, through the same pipeline as 'headtrack run'
            """),
        .flag("no-auto-calibration", """
            (with PATH) turn the background magnetometer calibration off, as 'replay --no-auto-calibration'
            (it is on by default, as 'run' ships it): its effect is the difference
            """),
        .flag("json", "print JSON instead of a table"),
        .flag("synthetic", """
            score the built-in synthetic head motions (still, slow/fast turns, walking, a magnet
            passing, gyro bias drift) instead of files
            """),
        .flag("loso", """
            validate the filter's magnetic-disturbance settings (norm and dip tolerances, reference
            time constant, new-field time and turning rate, recovery factor and longest recovery)
            leave one trial out, in 9D: each at today's value and a step either side (the others
            at today's, 15 candidates, each run once per trial); for each trial held out, the
            candidate with the lowest mean total RMSE on the other trials, and the held-out RMSE
            at it beside today's; how many folds kept each value; a CLIFF where a neighbour moves
            a group mean by more than 0.25°; and the source of each value (VQF or ours).
            About 15 times one 9D evaluation
            """),
        .value("seeds", "N", """
            with --loso: also replay every trial under N random irons on the raw magnetometer
            (those of 'eval calibration --background --loso': hard 10-60 µT, soft axis gains
            0.8-1.25 about random axes; seed S plus the trial's index), with the background
            calibration on and no calibration file: each iron from the start (scored from 60 s)
            and each replaced by the next at 60 s (scored from 120 s). A candidate's score on a
            trial is then the mean total RMSE of its 2N + 1 runs there (as recorded, whole trial,
            and the 2N iron runs); the held-out figures are shown as recorded and as the mean
            under irons. 0 (the default): as recorded only. About 2N + 1 times as long
            """, allowed: .wholeNumbers(0...50)),
        .value("seed", "S", "with --seeds: the first trial's irons' seed (default 1)", allowed: .wholeNumbers(0...1_000_000_000_000_000)),
    ])

    public static func run(_ arguments: inout Arguments) throws -> Int32 {
        let modeOption = try arguments.option("mode")
        let modeText = modeOption ?? "both"
        let asJSON = arguments.flag("json")
        let synthetic = arguments.flag("synthetic")
        let autoCalibration = !arguments.flag("no-auto-calibration")
        let calibrationPath = try arguments.option("calibration")
        let calibration = try CalibrationOption.load(calibrationPath)
        let loso = arguments.flag("loso")
        let seeds = try arguments.integer("seeds")
        let seedOption = try arguments.integer("seed")
        let paths = try arguments.positionals()
        if (seeds != nil || seedOption != nil) && !loso { throw CommandError("--seeds and --seed go with --loso", status: 2) }
        if seedOption != nil && (seeds ?? 0) == 0 { throw CommandError("--seed chooses the irons of --seeds N (N > 0): give --seeds too", status: 2) }
        if loso {
            guard !synthetic, modeOption == nil || modeOption == "9d" else {
                throw CommandError("--loso scores recordings in 9D: it takes no --synthetic or --mode other than 9d", status: 2)
            }
            if let n = seeds, n > 0 {
                guard calibrationPath == nil, autoCalibration else {
                    throw CommandError("--seeds replays under random irons with the background calibration on and no calibration file: "
                        + "it takes no --calibration or --no-auto-calibration", status: 2)
                }
                return try runLOSO(paths, irons: n, seed: UInt64(seedOption ?? 1), asJSON: asJSON)
            }
            return try runLOSO(paths, calibration: calibration, autoCalibration: autoCalibration, asJSON: asJSON)
        }
        let modes: [AttitudeMode]
        switch modeText {
        case "9d": modes = [.nineD]
        case "6d": modes = [.sixD]
        case "both": modes = [.nineD, .sixD]
        default: throw CommandError("--mode must be 9d, 6d or both, got '\(modeText)'", status: 2)
        }

        var trials: [(String, Trace)] = []
        if synthetic {
            for m in SyntheticAttitudeTrial.Motion.allCases {
                trials.append(("synthetic_" + m.rawValue, SyntheticAttitudeTrial(motion: m).trace()))
            }
        }
        guard synthetic || !paths.isEmpty else {
            throw CommandError("name trace files or a directory (e.g. ../shared/data/attitude), or pass --synthetic", status: 2)
        }
        let files = try expand(paths)
        for (i, file) in files.enumerated() {
            Console.err("\(Invocation.program) eval attitude: reading \(i + 1)/\(files.count) \(file)")
            let trace: Trace
            do { trace = try TraceFile.read(path: file) } catch { throw CommandError(error.description) }
            guard trace.records.contains(where: { $0.truth != nil && $0.moving == true }) else {
                throw CommandError("\(file) has no samples with truth and moving = 1: it needs qw,qx,qy,qz,moving columns")
            }
            trials.append((AttitudeEvaluation.trialName(path: file), trace))
        }
        var results: [AttitudeTrialResult] = []
        var done = 0
        for mode in modes {
            for (name, trace) in trials {
                done += 1
                if mode == .nineD && !trace.hasMagnetometer {
                    Console.err("\(Invocation.program) eval attitude: \(name) has no magnetometer; scored in 6D only")
                    continue
                }
                // Progress on stderr (the table or JSON on stdout stays clean): nine BROAD trials take ~10 s.
                Console.err("\(Invocation.program) eval attitude: \(done)/\(modes.count * trials.count) \(name) (\(mode == .nineD ? "9D" : "6D"))")
                results.append(AttitudeEvaluation.evaluate(trace: trace, name: name, mode: mode,
                                                           calibration: calibration, autoCalibration: autoCalibration))
            }
        }
        Console.write(1, asJSON ? AttitudeReport.json(results) : AttitudeReport.table(results))
        return 0
    }

    /// `--loso`: every candidate on every trial once (the RMSE cached), then the held-out choices.
    static func runLOSO(_ paths: [String], calibration: Calibration, autoCalibration: Bool, asJSON: Bool) throws -> Int32 {
        let files = try expand(paths)
        guard files.count >= 2 else { throw CommandError("--loso needs at least two trials to leave one out", status: 2) }
        let candidates = AttitudeDisturbanceLOSO.grid
        var rmse = [[Double]](repeating: [], count: candidates.count)
        var names: [String] = []
        for (t, file) in files.enumerated() {
            let trace = try readNineAxisWithTruth(file)
            let name = AttitudeEvaluation.trialName(path: file)
            names.append(name)
            for (c, candidate) in candidates.enumerated() {
                Console.err("\(Invocation.program) eval attitude --loso: trial \(t + 1)/\(files.count) candidate \(c + 1)/\(candidates.count)")
                let result = AttitudeEvaluation.evaluate(trace: trace, name: name, mode: .nineD, settings: candidate.settings,
                                                         calibration: calibration, autoCalibration: autoCalibration)
                rmse[c].append(result.rmse.totalDegrees)
            }
        }
        let measured = AttitudeDisturbanceLOSOReport.Measured(trials: names, candidates: candidates, rmse: rmse)
        Console.write(1, asJSON ? AttitudeDisturbanceLOSOReport.json(measured) : AttitudeDisturbanceLOSOReport.table(measured))
        return 0
    }

    /// `--loso --seeds N`: every candidate on every trial as recorded and under N random irons from the start and
    /// changed part-way (the variants made once per trial), then the held-out choices on each trial's mean.
    static func runLOSO(_ paths: [String], irons: Int, seed: UInt64, asJSON: Bool) throws -> Int32 {
        let files = try expand(paths)
        guard files.count >= 2 else { throw CommandError("--loso needs at least two trials to leave one out", status: 2) }
        let candidates = AttitudeDisturbanceLOSO.grid
        var runs = [[[AttitudeDisturbanceLOSO.Run]]](repeating: [], count: candidates.count)
        var names: [String] = []
        for (t, file) in files.enumerated() {
            let trace = try readNineAxisWithTruth(file)
            names.append(AttitudeEvaluation.trialName(path: file))
            let variants = AttitudeDisturbanceLOSO.variants(trace, irons: BackgroundCalibrationLOSO.randomIrons(count: irons, seed: seed &+ UInt64(t)))
            for (c, candidate) in candidates.enumerated() {
                Console.err("\(Invocation.program) eval attitude --loso: trial \(t + 1)/\(files.count) candidate \(c + 1)/\(candidates.count) (\(variants.count) runs)")
                runs[c].append(variants.map { AttitudeDisturbanceLOSO.run($0, candidate: candidate) })
            }
        }
        let measured = AttitudeDisturbanceLOSOReport.Measured(
            trials: names, candidates: candidates, rmse: runs.map { $0.map { $0[0].totalDeg } },
            irons: .init(perTrial: irons, seed: seed, runs: runs))
        Console.write(1, asJSON ? AttitudeDisturbanceLOSOReport.json(measured) : AttitudeDisturbanceLOSOReport.table(measured))
        return 0
    }

    /// A recording the 9D scores need: magnetometer samples and truth on moving samples, or a message saying so.
    static func readNineAxisWithTruth(_ file: String) throws -> Trace {
        let trace: Trace
        do { trace = try TraceFile.read(path: file) } catch { throw CommandError(error.description) }
        guard trace.hasMagnetometer, trace.records.contains(where: { $0.truth != nil && $0.moving == true }) else {
            throw CommandError("\(file) needs magnetometer and truth columns (mx,my,mz and qw,qx,qy,qz,moving)")
        }
        return trace
    }

    /// Files as given; directories become their *.csv files, sorted.
    static func expand(_ paths: [String]) throws -> [String] {
        var files: [String] = []
        for p in paths {
            var st = stat()
            guard stat(p, &st) == 0 else { throw CommandError("\(p): no such file or directory") }
            if (st.st_mode & S_IFMT) == S_IFDIR {
                guard let dir = opendir(p) else { throw CommandError("\(p): cannot open directory") }
                var names: [String] = []
                while let entry = readdir(dir) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                    }
                    if name.hasSuffix(".csv") { names.append(name) }
                }
                closedir(dir)
                if names.isEmpty { throw CommandError("\(p) has no *.csv trace files") }
                files += names.sorted().map { p.hasSuffix("/") ? p + $0 : p + "/" + $0 }
            } else {
                files.append(p)
            }
        }
        return files
    }
}
