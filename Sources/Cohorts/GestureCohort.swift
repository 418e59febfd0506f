import LibC
import Geometry
import Simulation

/// What a cohort trial contains: one gesture, or a stretch of a movement that is not a gesture.
public enum CohortKind: String, Sendable, CaseIterable {
    case singleNod = "single nod", nods = "nods", singleShake = "single shake", shakes = "shakes"
    case glance, lookAround = "looking around", tilt = "head tilt", talking, chewing, walking, running
    case boxing = "boxing dodges"
    // Added after the others, so the trials of the kinds above stay what they were for a given seed.
    case driftingGlance = "glance, drifting hold", lookBack = "look-backs", turnToSomeone = "turning to someone"
    case slips = "boxing slips and rolls"
    /// Drawn from recordings of real days and from the held-out drawing set's description (see `CohortMotions`).
    case keyGlance = "glancing at the keys", drawing = "drawing shapes"
    /// Drawn from the walking recordings' looks (see `CohortMotions`).
    case walkingGlances = "walking, looking about"

    public var isGesture: Bool { gestureLabel != nil }
    /// "nod" or "shake" for the gestures.
    public var gestureLabel: String? {
        switch self {
        case .singleNod, .nods: return "nod"
        case .singleShake, .shakes: return "shake"
        default: return nil
        }
    }
    public static var gestures: [CohortKind] { allCases.filter(\.isGesture) }
    public static var distractors: [CohortKind] { allCases.filter { !$0.isGesture } }
}

/// The labelled gesture of a trial: from its first swing's start to its last swing's end, and the peak of
/// the swing that completes it (the second), from which latency is measured.
public struct CohortGesture: Sendable {
    public var label: String
    public var start: Double
    public var end: Double
    public var completingPeak: Double
    public var swings: Int
    /// Start, fastest moment and end of each of its swings (s), in order.
    public var swingStarts: [Double] = []
    public var swingPeaks: [Double] = []
    public var swingEnds: [Double] = []
}

/// One simulated recording: sensor-frame samples of one virtual wearer, with the truth.
public struct CohortTrial: Sendable {
    public var kind: CohortKind
    public var wearer: Int
    public var rateHz: Double
    /// How the board sits on the head (what a config's `mount` would say).
    public var mount: Mount
    public var t: [Double]
    public var accel: [Vector3]
    public var gyro: [Vector3]
    /// The gesture, for gesture trials.
    public var gesture: CohortGesture?
    public var duration: Double { rateHz > 0 ? Double(t.count) / rateHz : 0 }
}

/// The device side of one virtual wearer: sample rate, sensor low-pass, noise, residual bias, mounting.
public struct CohortDevice: Sendable {
    public var rateHz: Double
    /// Corner of the sensor's own low-pass (Hz; two first-order poles), as earbuds filter before output.
    public var lowPassHz: Double
    /// Gyro white noise (rad/s per sample) and accelerometer noise (m/s² per sample).
    public var gyroNoise: Double
    public var accelNoise: Double
    public var gyroBias: Vector3
    public var mount: Mount
    /// How far the board sits off its nominal mount (a headset worn askew), head frame.
    public var misalignment: Quaternion
    /// Where the sensor sits relative to the head–neck pivot (head frame, m): at the ear, 2–6 cm above
    /// the pivot (C0–C1 lies a little below ear level), 1 cm behind to 2 cm ahead, 6–8 cm to the side.
    public var sensorOffset: Vector3
    /// How much later the accelerometer's path shows motion than the gyro's (s): 0–10 ms, the spread of
    /// on-chip filter group delays between the two sensors of MEMS IMUs (their low-pass settings differ).
    public var accelLag: Double
    /// Output range and resolution of each sensor (rad/s and m/s²): readings beyond the range clip, and every
    /// reading is a whole number of steps (infinite range and zero step: a 16-bit part, as good as exact).
    public var gyroRange = Double.infinity
    public var gyroStep = 0.0
    public var accelRange = Double.infinity
    public var accelStep = 0.0
}

/// Which devices the cohort's wearers have.
public enum CohortDevices: String, Sendable, CaseIterable {
    /// Boards and headsets from 25 Hz to 1 kHz (log-uniform), sensor low-pass at 0.35–0.8 of Nyquist, 16-bit.
    case mixed
    /// Earbuds as the held-out earbud sets describe them: 40–50 Hz, a 5 Hz on-chip low-pass, 8-bit samples
    /// (the gyro clipping at ±153 °/s, the accelerometer at ±4 g).
    case earbud
}

/// A seeded synthetic cohort: virtual wearers drawn from the gesture model's ranges (see
/// `GestureDetector.Settings`), each performing every gesture kind once and every distractor for
/// `distractorSeconds`. Trials are generated one at a time, so a cohort of any size fits in memory.
public struct GestureCohort: Sendable {
    public var wearers: Int
    public var seed: UInt64
    public var distractorSeconds = 40.0
    public var devices = CohortDevices.mixed

    /// Every trial's movement (gesture or distractor) begins 1.5 s to this long after its start (s): the
    /// still lead-in a recording starts with.
    public static let latestMovementStart = 2.5

    public init(wearers: Int, seed: UInt64 = 1, devices: CohortDevices = .mixed) {
        self.wearers = wearers; self.seed = seed; self.devices = devices
    }

    /// The earbud's sensors (`CohortDevices.earbud`): 8-bit samples over ±153 °/s and ±4 g.
    static let earbudGyroRange = 153 * Units.radiansPerDegree
    static let earbudAccelRange = 4 * Units.standardGravity
    static let earbudBits = 8.0
    /// The earbud's on-chip low-pass, −3 dB at 5 Hz: two first-order poles each at 5 Hz / √(√2 − 1) (7.8 Hz),
    /// about 40 ms of delay, between the MPU-6050's 19 ms and the MPU-6500's 33 (gyro) and 67 ms (accel) at
    /// their 5 Hz setting (hardware-facts §1.2).
    static let earbudPoleHz = 5 / (2.0.squareRoot() - 1).squareRoot()

    /// Boards the cohort wears: level, headphone (sensor X back, Y up, Z left), upside down, turned 90°,
    /// earbud (sensor Z out of the ear).
    static let mounts = ["x,y,z", "-x,z,y", "x,-y,-z", "y,-x,z", "y,z,x"]

    public func device(wearer: Int) -> CohortDevice {
        var r = SeededRandom(seed: seed &* 0x1000_0001 &+ UInt64(wearer) &* 7919)
        // 25 Hz to 1 kHz, log-uniform: as many slow earbuds as fast boards.
        let rate = 25 * pow(40, r.uniform())
        let nyquist = rate / 2
        let lowPass = min(r.range(0.35, 0.8) * nyquist, 100)
        let density = r.range(0.005, 0.03) * Units.radiansPerDegree     // rad/s/√Hz
        let accelDensity = r.range(100e-6, 400e-6) * 9.80665
        let bias = Vector3(r.gaussian(), r.gaussian(), r.gaussian()) * (0.3 * Units.radiansPerDegree)
        let mount = try! Mount(parsing: GestureCohort.mounts[Int(r.next() % UInt64(GestureCohort.mounts.count))])
        let tiltAxis = Vector3(r.gaussian(), r.gaussian(), r.gaussian())
        let misalignment = Quaternion(axis: tiltAxis.length > 1e-9 ? tiltAxis : Vector3(1, 0, 0),
                                      angle: r.range(0, 10) * Units.radiansPerDegree)
        // Drawn last, so the draws above stay what they were for a given seed.
        let sensorOffset = Vector3(r.range(-0.01, 0.02), r.sign() * r.range(0.06, 0.08), r.range(0.02, 0.06))
        let accelLag = r.range(0, 0.010)
        var d = CohortDevice(rateHz: rate, lowPassHz: lowPass, gyroNoise: density * nyquist.squareRoot(),
                             accelNoise: accelDensity * nyquist.squareRoot(), gyroBias: bias, mount: mount,
                             misalignment: misalignment, sensorOffset: sensorOffset, accelLag: accelLag)
        if devices == .earbud {
            // Drawn after the rest, so an earbud wearer is the same wearer with another device.
            d.rateHz = r.range(40, 50)
            d.lowPassHz = GestureCohort.earbudPoleHz
            d.gyroNoise = density * (d.rateHz / 2).squareRoot()
            d.accelNoise = accelDensity * (d.rateHz / 2).squareRoot()
            let levels = pow(2, GestureCohort.earbudBits)
            d.gyroRange = GestureCohort.earbudGyroRange
            d.gyroStep = 2 * d.gyroRange / levels
            d.accelRange = GestureCohort.earbudAccelRange
            d.accelStep = 2 * d.accelRange / levels
        }
        return d
    }

    /// The trial of `kind` for `wearer`: the same every time for the same seed.
    public func trial(wearer: Int, kind: CohortKind) -> CohortTrial {
        let kindIndex = UInt64(CohortKind.allCases.firstIndex(of: kind) ?? 0)
        var r = SeededRandom(seed: seed &* 0x9E37_79B9 &+ UInt64(wearer) &* 104_729 &+ kindIndex &* 31)
        var motion = HeadTrajectory()
        // Where the wearer looks: up to 20° up, or down at a screen, a table or a phone by up to 40° (the issue's
        // "no" answers made looking down 20–40°; positive is nose-down), and a slight habitual tilt.
        motion.pitch.offset = r.range(-20, 40) * Units.radiansPerDegree
        motion.roll.offset = r.range(-5, 5) * Units.radiansPerDegree
        motion.yaw.offset = r.range(-180, 180) * Units.radiansPerDegree
        let lead = r.range(1.5, GestureCohort.latestMovementStart)
        var gesture: CohortGesture? = nil
        var duration = distractorSeconds
        if let label = kind.gestureLabel {
            let swings = CohortMotions.gesture(kind, from: lead, into: &motion, random: &r)
            guard let first = swings.first, let last = swings.last else { fatalError("a gesture has swings") }
            let completing = swings[min(1, swings.count - 1)]
            gesture = CohortGesture(label: label, start: first.start, end: last.end,
                                    completingPeak: completing.peakTime, swings: swings.count,
                                    swingStarts: swings.map(\.start), swingPeaks: swings.map(\.peakTime),
                                    swingEnds: swings.map(\.end))
            duration = last.end + r.range(1.5, 2.5)
        } else {
            CohortMotions.distractor(kind, from: lead, until: duration, into: &motion, random: &r)
        }
        return sample(motion, kind: kind, wearer: wearer, duration: duration, gesture: gesture, random: &r)
    }

    /// Samples the motion as the wearer's device would: misalignment, mount, sensor low-pass, bias, noise.
    func sample(_ motion: HeadTrajectory, kind: CohortKind, wearer: Int, duration: Double,
                gesture: CohortGesture?, device: CohortDevice? = nil, random r: inout SeededRandom) -> CohortTrial {
        let d = device ?? self.device(wearer: wearer)
        var motion = motion
        motion.sensorOffset = d.sensorOffset
        let n = Int(duration * d.rateHz)
        var ts: [Double] = [], accel: [Vector3] = [], gyro: [Vector3] = []
        ts.reserveCapacity(n); accel.reserveCapacity(n); gyro.reserveCapacity(n)
        let dt = 1 / d.rateHz
        let alpha = 1 - exp(-2 * Double.pi * d.lowPassHz * dt)
        var g1 = Vector3.zero, g2 = Vector3.zero, a1 = Vector3.zero, a2 = Vector3.zero
        for i in 0..<n {
            let t = Double(i) * dt
            let s = motion.state(at: t)
            let lagged = d.accelLag > 0 ? motion.state(at: t - d.accelLag).accel : s.accel
            let gHead = d.misalignment.rotate(s.gyro), aHead = d.misalignment.rotate(lagged)
            if i == 0 { g1 = gHead; g2 = gHead; a1 = aHead; a2 = aHead }
            g1 += (gHead - g1) * alpha; g2 += (g1 - g2) * alpha
            a1 += (aHead - a1) * alpha; a2 += (a1 - a2) * alpha
            ts.append(t)
            let g = d.mount.unapply(g2) + d.gyroBias + r.gaussianVector() * d.gyroNoise
            let a = d.mount.unapply(a2) + r.gaussianVector() * d.accelNoise
            gyro.append(GestureCohort.digitised(g, range: d.gyroRange, step: d.gyroStep))
            accel.append(GestureCohort.digitised(a, range: d.accelRange, step: d.accelStep))
        }
        return CohortTrial(kind: kind, wearer: wearer, rateHz: d.rateHz, mount: d.mount, t: ts, accel: accel,
                           gyro: gyro, gesture: gesture)
    }
}

extension GestureCohort {
    /// A reading as the sensor outputs it: clipped to its range, rounded to its step.
    static func digitised(_ v: Vector3, range: Double, step: Double) -> Vector3 {
        guard range.isFinite || step > 0 else { return v }
        func one(_ x: Double) -> Double {
            let clipped = Swift.min(Swift.max(x, -range), range)
            return step > 0 ? (clipped / step).rounded() * step : clipped
        }
        return Vector3(one(v.x), one(v.y), one(v.z))
    }
}

extension SeededRandom {
    /// Uniform in [a, b).
    public mutating func range(_ a: Double, _ b: Double) -> Double { a + (b - a) * uniform() }
    /// +1 or −1.
    public mutating func sign() -> Double { next() & 1 == 0 ? 1 : -1 }
    public mutating func gaussianVector() -> Vector3 { Vector3(gaussian(), gaussian(), gaussian()) }
    /// An integer in a...b.
    public mutating func integer(_ a: Int, _ b: Int) -> Int { a + Int(next() % UInt64(b - a + 1)) }
}
