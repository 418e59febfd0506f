import Service
import LibC
import Commands
import Evaluation
import Geometry
import Tracking
import Formats

/// `headtrack eval attitude`: the BROAD attitude benchmark (or any trace with truth columns).
public enum EvalAttitudeCommand {
    public static let topic = "attitude"
    public static let summary = "attitude RMSE (total, heading, inclination) against recorded or synthetic truth"
    public static let help = options.help("""
        usage: headtrack eval attitude PATH... [--mode 9d|6d|both] [--calibration FILE] [--json]
               headtrack eval attitude --synthetic [--mode 9d|6d|both] [--json]

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
    ])

    public static func run(_ arguments: inout Arguments) throws -> Int32 {
        let modeText = try arguments.option("mode") ?? "both"
        let asJSON = arguments.flag("json")
        let synthetic = arguments.flag("synthetic")
        let autoCalibration = !arguments.flag("no-auto-calibration")
        let calibration = try CalibrationOption.load(try arguments.option("calibration"))
        let paths = try arguments.positionals()
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
