import Service
import LibC
import Commands
import GestureMetrics
import Gestures
import Formats
import Sensors
import Geometry
import Simulation
import Cohorts

/// `headtrack eval gestures`: nod/shake detection scored on recordings with labelled bouts.
struct EvalGesturesCommand: EvalTopic {
    static let topic = "gestures"
    static let summary = "score nod/shake detection on recordings with labelled bouts"
    static let help = options.help("""
        usage: headtrack eval gestures PATH... [--mount F,L,U|trace] [--detector default|classic] [--flicks]
                                       [--preset sensitive|normal|firm] [--nod-shake sensitive|normal|firm]
                                       [--cooldown S] [--ask | --single-always] [--swings N] [--json]
               headtrack eval gestures --cohort N [--seed S] [--nod-shake sensitive|normal|firm]
                               [--windows S | --export DIR [--kind K]] [--no-mount] [--earbud]

        Replays each imu-trace v1 recording (mount → attitude filter → gesture detector) and scores the
        detections against NAME.truth.json beside NAME.csv. A PATH that is a directory means every *.csv in
        it that has a truth file. Scoring rule: a detection hits a bout of the same label when it lies in
        [start − 0.3 s, end + 1.0 s]; each bout counts once; repeats inside a bout already hit are ignored;
        every other nod or shake is a false detection ("confused" when it lies in a bout of the other label).
        Flicks have no labels and are only counted. On recordings without gestures (daily life), the false
        nods and shakes are also given per hour for each activity (the file name's last words).
        Without --ask the detector runs always-on (no question pending: a nod or shake needs two cycles);
        with --ask, as if an app's question were pending throughout (a single nod or shake answers it).
        Latency is from bout start to the first hit; events/bout
        is every nod/shake event inside a found bout's window per found bout (LED flashes per bout).

        --cohort N instead draws N seeded virtual wearers (25 Hz–1 kHz, earbud low-pass, noise, bias, five
        board mounts worn up to 10° askew) from the gesture model in the detector's settings, has each do
        every gesture kind once and every distractor for 40 s, and prints recall per gesture kind, flashes
        per gesture, false events per minute per distractor and latency after the completing swing's peak,
        for the default detector and for the classic recipe.

        --cohort N --windows S cuts the same trials into S-second windows replayed from a fresh start each,
        as earbud datasets are: per gesture, one opening 0–0.4 s before its first swing and one opening
        mid-gesture (a swing under way in the first sample), and four per distractor; it prints the share
        of windows each detector gets right (the gesture's label and not the other; no nod or shake in a
        distractor's window).

        --cohort N --export DIR writes the same trials as recordings instead (DIR/cohort_sS_wNNN_KIND.csv,
        with its mount line and NAME.truth.json beside it), so that what measures the shared recordings
        measures the cohort the same way: eval gestures DIR --mount trace, replay --explain,
        scripts/out-and-backs.py DIR KIND pitch.
        """, outro: """
        example:
          headtrack eval gestures ../shared/data/gestures --mount=-x,z,y
          headtrack eval gestures ../shared/data/gestures --detector classic --json
          headtrack eval gestures --cohort 200 --seed 7
          headtrack eval gestures --cohort 100 --windows 1
          headtrack eval gestures --cohort 100 --windows 1 --earbud
          headtrack eval gestures --cohort 40 --export /tmp/cohort --kind glancing_at_the_keys
        """)

    static let options = OptionTable(helpColumn: 20, [
        .value("mount", "F,L,U", """
            sensor axes that point forward, left and up, e.g. --mount=-x,z,y for the shared
            headphone recordings (default: none). With it a nod is pitch about the head's
            left-right axis and a tilt to a shoulder is not one; without it nod and shake
            still come out right (a shake only with the head within about 27° of level),
            but roll cannot be told from pitch. Without it, files
            whose frame line says how they were worn get a note naming their --mount.
            --mount trace: each file's own `# mount:` line (none where it says unknown)
            """),
        .flag("ask", """
            answer mode: as if a question were pending throughout, so single nods and
            shakes count (what `replay --ask` does)
            """),
        .flag("single-always", """
            always-on, but single nods and shakes count too (config gestures.single
            "always")
            """),
        .value("swings", "N", "swings an always-on nod or shake needs (default 4: two cycles; 2 to 8)",
               allowed: .wholeNumbers(2...8)),
        .value("detector", "D", """
            default (the product's detector) or classic (per-frame Δpitch/Δyaw > 0.04 rad,
            0.5 s cooldown, up/down → nod, left/right → shake; the baseline)
            """, allowed: .words(GestureEvaluation.Detector.allCases.map(\.rawValue))),
        .flag("flicks", "also report up/down/left/right flicks (default detector)"),
        .value("preset", "P", """
            flick speed: sensitive 1.2, normal 2.4, firm 4.8 rad/s (default normal); for the
            classic detector, its per-frame threshold 0.02, 0.04, 0.08 rad
            """, allowed: .words(FlickPreset.allCases.map(\.rawValue))),
        .value("nod-shake", "P", """
            how gentle a nod or shake may be: every swing peaks at sensitive 20, normal 26,
            firm 46 °/s (default normal)
            """, allowed: .words(GesturePreset.allCases.map(\.rawValue))),
        .value("cooldown", "S", "minimum time between two reported gestures (default 0.5 s)",
               allowed: .numbers(ConfigLimits.gestureCooldown, said: "a time in seconds, \(ConfigLimits.text(ConfigLimits.gestureCooldown))")),
        .value("cohort", "N", "score on N synthetic wearers instead of recordings (1 to 10000)", allowed: .wholeNumbers(1...10000)),
        .value("seed", "S", "the cohort's seed (default 1)", allowed: .wholeNumbers(0...1_000_000_000_000_000)),
        .value("windows", "S", "with --cohort: score S-second windows (0.2 to 10 s) instead of whole trials",
               allowed: .numbers(0.2...10, said: "a window length from 0.2 to 10 s, e.g. --windows 1")),
        .flag("no-mount", """
            with --cohort: do not tell the detector the wearers' mounts, as a headset
            configured without `mount` runs (roll cannot be told from pitch then)
            """),
        .flag("earbud", """
            with --cohort: every wearer has an earbud instead (40–50 Hz, 5 Hz on-chip
            low-pass, 8-bit samples: the gyro clips at ±153 °/s, the accelerometer at ±4 g)
            """),
        .value("export", "DIR", """
            with --cohort: write the trials to the directory DIR (which must exist) as
            imu-trace v1 recordings with their truth, instead of scoring them
            """),
        .value("kind", "K", """
            with --export: only this kind's trials, its words joined by _ (e.g. walking,
            glancing_at_the_keys, single_nod; default every kind)
            """, allowed: .words(CohortKind.allCases.map(GestureCohortExport.slug))),
        .flag("json", "print the results as JSON instead of a table"),
    ])

    static func run(_ arguments: inout Arguments) throws -> Int32 {
        var evaluation = GestureEvaluation()
        if let m = try arguments.option("mount") {
            if m == "trace" {
                evaluation.mountFromTrace = true
            } else {
                do { evaluation.mount = try Mount(parsing: m) } catch { throw CommandError(error.description, status: 2) }
            }
        }
        evaluation.recognizer.listening = arguments.flag("ask")
        evaluation.recognizer.settings.singleGesturesAlways = arguments.flag("single-always")
        if evaluation.recognizer.listening && evaluation.recognizer.settings.singleGesturesAlways {
            throw CommandError("give --ask (a question pending) or --single-always (no question, single gestures taken), not both", status: 2)
        }
        if let n = try arguments.integer("swings") {
            evaluation.recognizer.settings.alwaysOnNodHalfWaves = n
            evaluation.recognizer.settings.alwaysOnShakeHalfWaves = n
        }
        if let d = try arguments.option("detector") {
            evaluation.recognizer.detector = GestureEvaluation.Detector(rawValue: d)!  // one of its row's words
        }
        evaluation.recognizer.settings.flicks = arguments.flag("flicks")
        if let p = try arguments.option("preset") {
            let preset = FlickPreset(rawValue: p)!  // one of its row's words
            evaluation.recognizer.settings.flickRate = preset.rate
            evaluation.recognizer.classicSettings.thresholdPerFrame = preset.classicThresholdPerFrame
        }
        if let c = try arguments.double("cooldown") {
            guard c >= 0 else { throw CommandError("--cooldown must be 0 s or more", status: 2) }
            evaluation.recognizer.settings.cooldown = c
            evaluation.recognizer.classicSettings.cooldown = c
        }
        if let p = try arguments.option("nod-shake") {
            evaluation.recognizer.settings.swingRate = GesturePreset(rawValue: p)!.swingRate  // one of its row's words
        }
        if let n = try arguments.integer("cohort") {
            let seed = UInt64(try arguments.integer("seed") ?? 1)
            let windowSeconds = try arguments.double("windows")
            let mountKnown = !arguments.flag("no-mount")
            let devices: CohortDevices = arguments.flag("earbud") ? .earbud : .mixed
            let exportDirectory = try arguments.option("export"), exportKind = try arguments.option("kind")
            guard try arguments.positionals().isEmpty else {
                throw CommandError("give either recordings or --cohort N, not both", status: 2)
            }
            let cohort = GestureCohort(wearers: n, seed: seed, devices: devices)
            if let directory = exportDirectory {
                return try export(cohort, to: directory, kind: exportKind, windows: windowSeconds)
            }
            if exportKind != nil {
                throw CommandError("--kind works with --export only (the scores always cover every kind)", status: 2)
            }
            // Progress on stderr, a line per kind and detector (the table on stdout stays clean): 200 wearers
            // take about a minute.
            var steps = 2 * CohortKind.allCases.count
            var step = 0
            func progress(_ d: GestureEvaluation.Detector) -> (CohortKind) -> Void {
                { kind in
                    step += 1
                    Console.err("\(Invocation.program) eval gestures: \(step)/\(steps) \(d.rawValue) detector, \(kind.rawValue) (\(cohort.wearers) \(cohort.wearers == 1 ? "wearer" : "wearers"))")
                }
            }
            if let w = windowSeconds {
                func scores(_ d: GestureEvaluation.Detector, _ opening: GestureCohortWindows.Opening,
                            _ kinds: [CohortKind]) -> ([GestureCohortWindows.KindScore], String) {
                    var e = GestureCohortEvaluation(cohort: cohort, recognizer: evaluation.recognizer.running(d))
                    e.mountKnown = mountKnown
                    var windows = GestureCohortWindows(evaluation: e, seconds: w)
                    windows.opening = opening
                    return (windows.run(kinds: kinds, progress: progress(d)), windows.description)
                }
                steps = 2 * (CohortKind.allCases.count + CohortKind.gestures.count)
                let (mine, description) = scores(.default, .leadIn, CohortKind.allCases)
                let mid = scores(.default, .midGesture, CohortKind.gestures).0
                let classic = scores(.classic, .leadIn, CohortKind.allCases).0
                let classicMid = scores(.classic, .midGesture, CohortKind.gestures).0
                Console.out(GestureCohortWindowsReport.table(default: mine, classic: classic, mid: mid,
                                                             classicMid: classicMid, description: description))
                return 0
            }
            var tables: [String] = []
            for detector in GestureEvaluation.Detector.allCases {
                var e = GestureCohortEvaluation(cohort: cohort, recognizer: evaluation.recognizer.running(detector))
                e.mountKnown = mountKnown
                tables.append(GestureCohortReport.table(e.run(progress: progress(detector)), description: e.description))
            }
            Console.out(tables.joined(separator: "\n\n"))
            return 0
        }
        if try arguments.option("export") != nil || arguments.option("kind") != nil {
            throw CommandError("--export and --kind work with --cohort N only: they write the synthetic trials as recordings", status: 2)
        }
        if try arguments.double("windows") != nil {
            throw CommandError("--windows works with --cohort N only: it cuts the synthetic trials into windows "
                + "(a recording with a window column is replayed window by window already)", status: 2)
        }
        if arguments.flag("no-mount") {
            throw CommandError("--no-mount works with --cohort N only; for recordings, leave out --mount", status: 2)
        }
        if arguments.flag("earbud") {
            throw CommandError("--earbud works with --cohort N only (it chooses the virtual wearers' devices)", status: 2)
        }
        let json = arguments.flag("json")
        let paths = try arguments.positionals()
        guard !paths.isEmpty else {
            throw CommandError("give one or more recordings or directories (see \(Invocation.program) eval gestures --help)", status: 2)
        }
        var traces: [String] = []
        for p in paths { traces += try expand(p) }
        let results: [GestureEvaluation.FileResult]
        do { results = try evaluation.evaluate(tracePaths: traces) } catch { throw CommandError(error.message) }
        if evaluation.mount == nil {
            for note in WornMountNote.lines(results.map { ($0.name, $0.wornMount) }) { Console.err(note) }
        }
        Console.out(json ? GestureReport.json(results, evaluation: evaluation)
                         : GestureReport.table(results, description: evaluation.description))
        return 0
    }

    /// A file stays itself; a directory becomes its *.csv files that have a truth file, sorted.
    static func expand(_ path: String) throws -> [String] {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw CommandError("\(path): \(String(cString: strerror(errno))); give a trace file or a directory of them")
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return [path] }
        guard let dir = opendir(path) else {
            throw CommandError("\(path): cannot list the directory: \(String(cString: strerror(errno)))")
        }
        defer { closedir(dir) }
        var found: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasSuffix(".csv") else { continue }
            let full = path.hasSuffix("/") ? path + name : path + "/" + name
            if FileIO.exists(GestureTruth.path(forTrace: full)) { found.append(full) }
        }
        guard !found.isEmpty else {
            throw CommandError("\(path): no NAME.csv with a NAME.truth.json beside it")
        }
        return found.sorted()
    }

    /// `--export DIR`: the cohort's trials as recordings with their truth, a line of progress per kind.
    static func export(_ cohort: GestureCohort, to directory: String, kind: String?, windows: Double?) throws -> Int32 {
        guard windows == nil else {
            throw CommandError("--export writes whole trials; leave out --windows (a trial's windows are cut when it is scored)", status: 2)
        }
        var info = stat()
        guard stat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw CommandError("--export \(directory): no such directory; make it first (mkdir -p \(directory))")
        }
        let kinds = kind.map { k in CohortKind.allCases.filter { GestureCohortExport.slug($0) == k } } ?? CohortKind.allCases
        let export = GestureCohortExport(cohort: cohort)
        var done = 0
        let written: [String]
        do {
            written = try export.write(kinds: kinds, to: directory) { k in
                done += 1
                Console.err("\(Invocation.program) eval gestures: writing \(done)/\(kinds.count) \(k.rawValue) (\(cohort.wearers) \(cohort.wearers == 1 ? "wearer" : "wearers"))")
            }
        } catch {
            throw CommandError("could not write the cohort to \(directory): \(error.description)")
        }
        Console.out("wrote \(written.count) recordings with their truth to \(directory) "
            + "(score them with: \(Invocation.program) eval gestures \(directory) --mount trace [--ask])")
        return 0
    }
}
