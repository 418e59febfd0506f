/// The fold selection of the lab's leave-one-trial-out validations (`eval calibration --background --loso`,
/// `eval attitude --loso`), in one place: each candidate is scored on every trial but the one held out, so
/// a trial's own result can never choose the values it is then scored with.
public enum LeaveOneOut {
    /// The candidate (row of `table[candidate][trial]`) whose `score` over the trials other than `heldOut` is
    /// best by `isBetter`; a candidate must be strictly better to displace `preferred` (today's values), so
    /// ties keep what ships.
    public static func choose<Entry, Score>(_ table: [[Entry]], preferred: Int, heldOut: Int,
                                            score: ([Entry]) -> Score, isBetter: (Score, Score) -> Bool) -> Int {
        func training(_ c: Int) -> [Entry] { table[c].enumerated().filter { $0.offset != heldOut }.map(\.element) }
        var best = preferred
        var bestScore = score(training(preferred))
        for c in table.indices where c != preferred {
            let s = score(training(c))
            if isBetter(s, bestScore) { best = c; bestScore = s }
        }
        return best
    }
}
