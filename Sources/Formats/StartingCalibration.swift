import SensorCalibration

/// The calibration a session starts from, where it came from, and what to say about it. The files are read
/// when the session is planned; the lines are said by whoever loads it into the session, at that step, so a
/// bus that cannot be opened before it still ends the run without them (as when the files were read there).
public struct StartingCalibration: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// The guided file (`headtrack calibrate`), or its `.previous` when the file could not be read.
        case guided(file: String)
        /// What the background calibration learned while worn (`CalibrationStore.learnedPath`).
        case learned(file: String)
        case none
    }

    /// A line to say: a warning always, information unless the command is quiet.
    public enum Note: Sendable, Equatable {
        case warning(String)
        case info(String)
    }

    public var calibration: Calibration
    public var source: Source
    /// In the order they are said.
    public var notes: [Note]

    /// What `run` starts from: with the background calibration on (`calibration.auto`), the learned file
    /// beside the guided one when it is newer (`CalibrationStore.newer`), else the guided file as `guided`
    /// reads it. A learned file that cannot be read is a warning, and the guided one is used.
    public init(calibrationFile path: String, autoCalibration: Bool) {
        guard autoCalibration else {
            self = .guided(path)
            return
        }
        let learnedPath = CalibrationStore.learnedPath(beside: path)
        let hasGuided = FileIO.exists(path) || FileIO.exists(path + ".previous")
        let guided: StartingCalibration? = hasGuided ? .guided(path) : nil
        var notes = guided?.notes ?? []
        var learned: Calibration? = nil
        if FileIO.exists(learnedPath) || FileIO.exists(learnedPath + ".previous") {
            let (c, problem) = CalibrationStore(path: learnedPath).loadKeepingCurrent(nil)
            if let p = problem { notes.append(.warning("headtrack: \(p)")) }
            if c != .none { learned = c }
        }
        guard let start = CalibrationStore.newer(guided: guided?.calibration, learned: learned) else {
            notes.append(.info("headtrack: no calibration at \(path): learning hard and soft iron while worn (turn your head about; "
                + "'headtrack calibrate' does it at once)"))
            self.init(calibration: .none, source: .none, notes: notes)
            return
        }
        if let l = learned, start == l {
            let fit = l.magnetometerFit.map { " (fit error \(fixed($0.relativeResidual * 100, 1)) %, \(fixed($0.coverage * 100, 0)) % of directions)" } ?? ""
            notes.append(.info("headtrack: starting from the calibration learned while worn, \(learnedPath)\(fit)"))
            self.init(calibration: start, source: .learned(file: learnedPath), notes: notes)
            return
        }
        self.init(calibration: start, source: guided?.source ?? .none, notes: notes)
    }

    /// The guided file when it is good; otherwise its previous file or none, with a one-line warning that
    /// says what to do. A bad file never stops the tracker.
    public static func guided(_ path: String) -> StartingCalibration {
        guard FileIO.exists(path) || FileIO.exists(path + ".previous") else {
            return StartingCalibration(calibration: .none, source: .none,
                                       notes: [.warning("headtrack: no calibration at \(path): running uncalibrated (run 'headtrack calibrate' once)")])
        }
        let store = CalibrationStore(path: path)
        let (calibration, problem) = store.loadKeepingCurrent(nil)
        guard let p = problem else { return StartingCalibration(calibration: calibration, source: .guided(file: path), notes: []) }
        // With nothing in use, a file that cannot be read falls back to its previous file, else to none.
        return StartingCalibration(calibration: calibration, source: calibration == .none ? .none : .guided(file: store.previousPath),
                                   notes: [.warning("headtrack: \(p)")])
    }

    init(calibration: Calibration, source: Source, notes: [Note]) {
        self.calibration = calibration; self.source = source; self.notes = notes
    }
}
