import Geometry

/// One sample as the gesture detector takes it, without the attitude: time (s), bias-corrected head-frame
/// rate (rad/s) and head-frame specific force (m/s²).
public struct GestureInput: Sendable, Equatable {
    public var t: Double
    public var gyro: Vector3
    public var accel: Vector3

    @inlinable public init(t: Double, gyro: Vector3, accel: Vector3) {
        self.t = t; self.gyro = gyro; self.accel = accel
    }
}

/// Feeds the gesture detector at about 100 Hz whatever the IMU's rate: consecutive samples are averaged into
/// one until they span `minimumInterval`.
///
/// Why: head gestures live below 6 Hz and the detector low-passes its rate at 10 Hz
/// (`GestureDetector.Settings.smoothingTimeConstant`), so samples beyond ~100 Hz tell it nothing new, while each
/// costs a full detector step (about a quarter of the whole pipeline's instructions at 286 Hz). A mean of
/// consecutive samples is a low-pass of its own (a 10 ms boxcar: −0.05 dB at 6 Hz, nulls at multiples of the
/// group rate), not a pick of every n-th sample, so vibration above the new rate is attenuated before it can
/// fold down into the gesture band instead of folding down whole.
///
/// The mean is stamped with the mean time of its samples (where a boxcar's output belongs, so the detector's
/// swing durations and crossings are not shifted). The caller gives the detector the attitude after the sample
/// that completed the group (the detector only takes the vertical from it, which even a brisk nod tilts by a
/// degree or two in 10 ms), read then rather than passed in with every sample, and reports a detection at
/// that sample's time, which is when it is known.
///
/// Streams at up to 110 Hz pass sample by sample, bit for bit: a group of one is that sample. The product
/// (`Pipeline`) and the evaluation (`GestureReplay`) both use this, so what is measured is what runs.
public struct GestureInputDecimator: Sendable {
    /// Groups span at least this (s): 1/110 s, so that a 100 Hz clock whose intervals jitter by a few percent
    /// still passes every sample, 200 Hz goes in pairs, 286 Hz in threes and 1 kHz in tens.
    public static let productInterval = 1.0 / 110

    public let minimumInterval: Double

    // Internal rather than private so that `add` can be inlined into the pipeline (it runs on every sample).
    @usableFromInline var count = 0
    @usableFromInline var timeSum = 0.0
    @usableFromInline var gyroSum = Vector3.zero
    @usableFromInline var accelSum = Vector3.zero
    /// Time of the latest sample taken in (s), and of the latest sample that closed a group (−∞ before the
    /// first: t − (−∞) passes any interval, so the first sample closes a group of its own).
    @usableFromInline var lastTime = -Double.infinity
    @usableFromInline var lastGroupEnd = -Double.infinity

    /// `minimumInterval` ≤ 0 passes every sample (for a recognizer defined per frame).
    public init(minimumInterval: Double = GestureInputDecimator.productInterval) {
        self.minimumInterval = minimumInterval
    }

    /// Takes one sample; returns the mean of the group when this sample completes one, else nil.
    ///
    /// - A sample at the same time as the previous one adds no motion and is left out, as the detector leaves
    ///   it out. Time going backwards (a new recording) drops the unfinished group and passes the sample on its
    ///   own, so the detector restarts from it as it would without this.
    /// - Finiteness is left to the detector: a non-finite value makes its group's mean non-finite, and the
    ///   detector ignores that sample as it ignores a non-finite one (checking each sample here cost as much as
    ///   the rest of this together). Only a non-finite time is refused here, as it would break the grouping.
    @inlinable @inline(__always)
    public mutating func add(t: Double, gyro: Vector3, accel: Vector3) -> GestureInput? {
        guard t.isFinite else { return nil }
        if t < lastTime {
            count = 0
            lastGroupEnd = -Double.infinity
        } else if t == lastTime {
            return nil
        }
        lastTime = t
        if count == 0 {
            // The first sample is taken as it is (0 + x would turn a −0 into +0), so a group of one is that sample.
            timeSum = t; gyroSum = gyro; accelSum = accel
        } else {
            timeSum += t; gyroSum += gyro; accelSum += accel
        }
        count += 1
        guard t - lastGroupEnd >= minimumInterval else { return nil }
        lastGroupEnd = t
        let n = count
        count = 0
        if n == 1 { return GestureInput(t: timeSum, gyro: gyroSum, accel: accelSum) }
        let scale = 1 / Double(n)
        return GestureInput(t: timeSum * scale, gyro: gyroSum * scale, accel: accelSum * scale)
    }
}
