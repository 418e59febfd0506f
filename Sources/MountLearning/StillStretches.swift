import Geometry

/// Finds the stretches where a worn sensor holds still and measures gravity there (which way is up) and the
/// gyro's offset. Judged in blocks of fixed length, so the rule means the same at 25 Hz and at 1 kHz, and
/// kept in a few sums: nothing is stored per sample.
struct StillStretches: Sendable {
    struct Settings: Sendable, Equatable {
        /// Length of one judged block (s).
        var blockSeconds = 0.25
        /// A block is still when the gyro's spread (all axes, rad/s) stays under this: 3 °/s, above the
        /// noise of every device of the model (≤ 0.7 °/s at 1 kHz) and under the ≤ 6.5 °/s small movements
        /// of talking, so a block that is called still holds the head where it rests.
        var gyroDeviation = 3 * Units.radiansPerDegree
        /// … and the accelerometer's spread under this (m/s²): 0.3, three times the noisiest device's
        /// per-sample noise (0.09 m/s² at 1 kHz), far under the ±2–3 m/s² of a walking head's bounce.
        var accelDeviation = 0.3
        /// … and the mean specific force within this of 1 g (m/s²): 2, wide enough for an untrimmed
        /// accelerometer's offsets (MPU-class: up to ±80 mg an axis), narrow enough to refuse a sensor that
        /// is not reading gravity at all.
        var gravityTolerance = 2.0
        /// Blocks in a row before a stretch counts (4 × 0.25 s = 1 s): a pause between two movements is not rest.
        var minimumBlocks = 4
        /// A still head turns by almost nothing, so a block's mean rate is the gyro's offset unless it exceeds
        /// this (rad/s): 10 °/s, beyond the zero-rate offset of MPU-class gyros (±5 °/s).
        var maximumBias = 10 * Units.radiansPerDegree
    }

    let settings: Settings
    // The block being measured.
    private var blockStart = -Double.infinity
    private var n = 0
    private var gyroSum = Vector3.zero, gyroSquares = Vector3.zero
    private var accelSum = Vector3.zero, accelSquares = Vector3.zero
    // The run of still blocks (committed once it is long enough).
    private var runBlocks = 0
    private var runGravity = Vector3.zero
    private var runGyro = Vector3.zero
    private var runBiasSeconds = 0.0
    private var runSeconds = 0.0
    // Everything committed so far.
    /// Sum of the unit gravity directions of still blocks, weighted by their length (s).
    private(set) var gravitySum = Vector3.zero
    private(set) var seconds = 0.0
    private var biasSum = Vector3.zero
    private var biasSeconds = 0.0
    /// Stretches begun (a still run became long enough).
    private(set) var stretches = 0
    /// The latest stretch's gravity (sum of its blocks' unit directions × length) and length (s).
    private var latestGravity = Vector3.zero
    private(set) var latestSeconds = 0.0
    /// End of the latest still block that belongs to a stretch.
    private(set) var latestStillEnd = -Double.infinity

    init(settings: Settings) { self.settings = settings }

    /// The direction of gravity over every still stretch (unit, sensor frame), or nil before the first.
    var up: Vector3? { seconds > 0 && gravitySum.length > 0 ? gravitySum.normalized : nil }
    /// The gyro's offset measured while still (zero before the first stretch).
    var bias: Vector3 { biasSeconds > 0 ? biasSum / biasSeconds : .zero }
    /// The latest stretch's own direction of gravity (unit, sensor frame).
    var latestUp: Vector3 { latestGravity.normalized }

    mutating func add(t: Double, gyro: Vector3, accel: Vector3) {
        if t - blockStart >= settings.blockSeconds || t < blockStart {
            if n > 0 { closeBlock(end: t) }
            blockStart = t
            n = 0
            gyroSum = .zero; gyroSquares = .zero; accelSum = .zero; accelSquares = .zero
        }
        n += 1
        gyroSum += gyro; gyroSquares += gyro * gyro
        accelSum += accel; accelSquares += accel * accel
    }

    /// Forgets the run in progress (a gap in the samples).
    mutating func interrupt() {
        n = 0
        blockStart = -Double.infinity
        endRun()
    }

    private mutating func closeBlock(end: Double) {
        guard n >= 3 else { endRun(); return }   // a spread needs samples; a block this thin is a gap
        let count = Double(n)
        let gMean = gyroSum / count, aMean = accelSum / count
        let gVar = (gyroSquares / count - gMean * gMean).sum(), aVar = (accelSquares / count - aMean * aMean).sum()
        let duration = end - blockStart
        let still = gVar <= settings.gyroDeviation * settings.gyroDeviation
            && aVar <= settings.accelDeviation * settings.accelDeviation
            && abs(aMean.length - Units.standardGravity) <= settings.gravityTolerance
        guard still else { endRun(); return }
        runBlocks += 1
        let direction = aMean.normalized
        let countsForBias = gMean.length <= settings.maximumBias
        if runBlocks < settings.minimumBlocks {
            runGravity += direction * duration
            if countsForBias { runGyro += gMean * duration; runBiasSeconds += duration }
            runSeconds += duration
            return
        }
        if runBlocks == settings.minimumBlocks {
            // The run is long enough: what it held so far counts now, and so does each block from here on.
            gravitySum += runGravity; seconds += runSeconds
            biasSum += runGyro; biasSeconds += runBiasSeconds
            stretches += 1
            latestGravity = runGravity
            latestSeconds = runSeconds
            runGravity = .zero; runGyro = .zero; runBiasSeconds = 0; runSeconds = 0
        }
        gravitySum += direction * duration
        seconds += duration
        if countsForBias { biasSum += gMean * duration; biasSeconds += duration }
        latestGravity += direction * duration
        latestSeconds += duration
        latestStillEnd = end
    }

    private mutating func endRun() {
        runBlocks = 0
        runGravity = .zero; runGyro = .zero; runBiasSeconds = 0; runSeconds = 0
    }
}
