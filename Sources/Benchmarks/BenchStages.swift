import LibC
import Fusion
import Geometry
import Gestures
import Hardware
import Indicators
import Tracking
import Sensors
import Service

/// Keeps the optimiser from deleting work whose result nobody reads.
nonisolated(unsafe) var benchSink = 0.0

/// Cost of each pipeline stage per call, and of the whole pipeline per IMU sample, replaying a recording.
/// Each figure is the median over `runs` passes over the whole recording, in CPU time of this thread
/// (CLOCK_THREAD_CPUTIME_ID), so time spent preempted by other processes on a shared machine is not counted.
public struct StageCosts: Sendable {
    public struct Entry: Sendable {
        public var name: String
        /// Median nanoseconds per call.
        public var nanoseconds: Double
        /// What one call is.
        public var unit: String
    }
    public var entries: [Entry] = []
    public var samples = 0
    public var runs = 0
    /// What the background calibration did in one pass over the recording (every timed pass starts from a
    /// fresh pipeline, so each does the same): the figures say whether "calibration on" timed it fitting.
    public var calibrationWork = CalibrationWork()

    public struct CalibrationWork: Sendable {
        /// Ellipsoid fits that finished with a result (each spread over many samples in slices).
        public var fits = 0
        /// Of those, the fits accepted, and the changes of the correction in use.
        public var accepted = 0
        public var changes = 0
    }

    public static func measure(_ input: BenchTrace, runs: Int = 9) -> StageCosts {
        let data = StageInputs(input.trace)
        var costs = StageCosts()
        costs.samples = data.count
        costs.runs = runs
        costs.calibrationWork = data.calibrationWork
        func time(_ name: String, unit: String, calls: Int, _ body: () -> Double) {
            var perCall: [Double] = []
            for _ in 0..<runs {
                let start = threadCPUTime()
                benchSink += body()
                perCall.append(Double(threadCPUTime() - start) / Double(max(1, calls)))
            }
            costs.entries.append(Entry(name: name, nanoseconds: median(perCall), unit: unit))
        }
        let n = data.count
        time("driver decode (14-byte block → SI)", unit: "sample", calls: n) { decode(data) }
        time("fusion (attitude filter)", unit: "sample", calls: n) { fusion(data) }
        time("heading (tilt-compensated)", unit: "sample", calls: n) { heading(data) }
        time("smoother", unit: "display tick", calls: n) { smoother(data) }
        time("gestures", unit: "sample", calls: n) { gestures(data) }
        time("LEDs (panel mask)", unit: "display tick", calls: n) { leds(data) }
        time("whole pipeline", unit: "IMU sample", calls: n) { pipeline(data) }
        // The background calibration on (as run and replay have it) and off, in alternating passes, so the
        // two figures share the machine's state: the difference is what it costs.
        var on: [Double] = [], off: [Double] = []
        for round in 0..<runs {
            for pass in (round % 2 == 0 ? [true, false] : [false, true]) {
                let start = threadCPUTime()
                benchSink += pass ? pipeline(data) : pipelineWithoutAutoCalibration(data)
                let perSample = Double(threadCPUTime() - start) / Double(max(1, n))
                if pass { on.append(perSample) } else { off.append(perSample) }
            }
        }
        costs.entries.append(Entry(name: "  background calibration on", nanoseconds: median(on), unit: "IMU sample"))
        costs.entries.append(Entry(name: "  background calibration off", nanoseconds: median(off), unit: "IMU sample"))
        time("bytes → LEDs (decode + pipeline)", unit: "IMU sample", calls: n) { pipelineFromBytes(data) }
        time("mount watch (run, learning while worn)", unit: "IMU sample", calls: n) { mountWatch(data) }
        return costs
    }

    public func entry(_ prefix: String) -> Entry? { entries.first { $0.name.hasPrefix(prefix) } }
}

/// CPU time consumed by the calling thread, in nanoseconds.
func threadCPUTime() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// Everything each stage needs, computed once before timing: raw register bytes for the driver, and the
/// intermediate results (attitude, heading, head-frame gyro) of a reference pass for the later stages.
struct StageInputs {
    var count: Int
    var t: [Double] = []
    var accel: [Vector3] = []
    var gyro: [Vector3] = []
    var mag: [Vector3?] = []
    var dt: [Double] = []
    var attitude: [Quaternion] = []
    var headGyro: [Vector3] = []
    var magTrusted: [Bool] = []
    var heading: [HeadingReading] = []
    var displayed: [DisplayedHeading] = []
    /// 14 bytes per sample as the MPU-9250 would send them (±4 g, ±500 °/s).
    var registerBytes: [UInt8] = []
    var calibrationWork = StageCosts.CalibrationWork()

    init(_ trace: Trace) {
        count = trace.records.count
        var p = Pipeline()
        var smoother = HeadingSmoother()
        var previous = trace.records.first?.t ?? 0
        for r in trace.records {
            t.append(r.t)
            accel.append(r.accel)
            gyro.append(r.gyro)
            mag.append(r.mag)
            dt.append(r.t - previous)
            previous = r.t
            let fitBefore = p.autoCalibration?.latestFit
            _ = p.processIMU(t: r.t, accel: r.accel, gyro: r.gyro, mag: r.mag)
            if p.autoCalibration?.latestFit != fitBefore { calibrationWork.fits += 1 }
            attitude.append(p.attitude)
            headGyro.append(p.headGyro - p.filter.gyroBias)
            magTrusted.append(p.filter.hasHeadingReference && !p.filter.isMagneticallyDisturbed)
            heading.append(p.heading)
            displayed.append(smoother.step(raw: p.heading, dt: 1.0 / 60))
            appendRegisterBytes(accel: r.accel, gyro: r.gyro)
        }
        calibrationWork.accepted = p.autoCalibration?.acceptedFits ?? 0
        calibrationWork.changes = p.autoCalibration?.revision ?? 0
    }

    private mutating func appendRegisterBytes(accel a: Vector3, gyro g: Vector3) {
        func put(_ v: Double) {
            let u = UInt16(bitPattern: Int16(clamping: Int(v.rounded())))
            registerBytes.append(UInt8(u >> 8))
            registerBytes.append(UInt8(u & 0xFF))
        }
        let accelLSB = AccelRange.g4.lsbPerG / Units.standardGravity
        let gyroLSB = GyroRange.dps500.lsbPerDegreePerSecond * Units.degreesPerRadian
        put(a.x * accelLSB); put(a.y * accelLSB); put(a.z * accelLSB)
        put(1335)  // temperature, 25 °C
        put(g.x * gyroLSB); put(g.y * gyroLSB); put(g.z * gyroLSB)
    }
}

/// A bus that answers every 14-byte read with the next recorded sample's register bytes.
struct ReplayBus: I2CBus {
    let bytes: [UInt8]
    var cursor = 0
    var name: String { "replayed recording" }

    mutating func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>) throws(I2CError) {
        if cursor + buffer.count > bytes.count { cursor = 0 }
        for i in 0..<buffer.count { buffer[i] = bytes[cursor + i] }
        cursor += buffer.count
    }

    mutating func writeRegister(address: UInt8, register: UInt8, value: UInt8) throws(I2CError) {}
}

// MARK: One pass of each stage (never inlined, so each is timed as a whole)

@inline(never) func decode(_ d: StageInputs) -> Double {
    var driver = MPU9250(bus: ReplayBus(bytes: d.registerBytes))
    var sum = 0.0
    for _ in 0..<d.count {
        if let s = try? driver.readIMU() { sum += s.accel.x + s.gyro.z }
    }
    return sum
}

@inline(never) func fusion(_ d: StageInputs) -> Double {
    var filter = AttitudeFilter()
    for i in 0..<d.count { filter.update(gyro: d.gyro[i], accel: d.accel[i], mag: d.mag[i], dt: d.dt[i]) }
    return filter.attitude.w
}

@inline(never) func heading(_ d: StageInputs) -> Double {
    let compass = TiltCompensatedCompass()
    var sum = 0.0
    for i in 0..<d.count { sum += compass.heading(attitude: d.attitude[i], magnetometerTrusted: d.magTrusted[i]).degrees }
    return sum
}

@inline(never) func smoother(_ d: StageInputs) -> Double {
    var s = HeadingSmoother()
    var sum = 0.0
    for i in 0..<d.count { sum += s.step(raw: d.heading[i], dt: 1.0 / 60).degrees }
    return sum
}

@inline(never) func gestures(_ d: StageInputs) -> Double {
    var detector = GestureDetector()
    var found = 0.0
    for i in 0..<d.count where detector.update(t: d.t[i], gyro: d.headGyro[i], attitude: d.attitude[i]) != nil { found += 1 }
    return found
}

/// What `run` adds per sample beside the pipeline: the mount learner watching the raw samples.
@inline(never) func mountWatch(_ d: StageInputs) -> Double {
    var watch = WornMountWatch(configured: .identity)
    var found = 0.0
    for i in 0..<d.count where watch.add(t: d.t[i], gyro: d.gyro[i], accel: d.accel[i]) != nil { found += 1 }
    return found
}

@inline(never) func leds(_ d: StageInputs) -> Double {
    var panel = LedPanel()
    var bits: UInt64 = 0
    for i in 0..<d.count { bits ^= panel.mask(at: d.t[i], heading: d.displayed[i], fault: false) }
    return Double(bits)
}

/// The whole pipeline as the loop runs it. Two functions (not one with a flag), so that a profiler such as
/// callgrind (scripts/bench-vs-vqf.sh) can count each on its own by name.
@inline(never) func pipeline(_ d: StageInputs) -> Double { pipelinePass(d, decodeBytes: false) }
@inline(never) func pipelineFromBytes(_ d: StageInputs) -> Double { pipelinePass(d, decodeBytes: true) }
@inline(never) func pipelineWithoutAutoCalibration(_ d: StageInputs) -> Double {
    var settings = Pipeline.Settings()
    settings.autoCalibration = nil
    return pipelinePass(d, decodeBytes: false, settings: settings)
}

/// Every IMU sample through fusion, heading and gestures, and a display tick (smoother + LEDs) at 60 Hz of
/// recording time; optionally starting from register bytes.
@inline(__always) func pipelinePass(_ d: StageInputs, decodeBytes: Bool, settings: Pipeline.Settings = Pipeline.Settings()) -> Double {
    var p = Pipeline(settings: settings)
    var driver = MPU9250(bus: ReplayBus(bytes: d.registerBytes))
    let displayPeriod = 1.0 / 60
    var nextDisplay = d.t.first ?? 0
    var bits: UInt64 = 0
    for i in 0..<d.count {
        var a = d.accel[i], g = d.gyro[i]
        if decodeBytes, let s = try? driver.readIMU() { a = s.accel; g = s.gyro }
        if p.processIMU(t: d.t[i], accel: a, gyro: g, mag: d.mag[i]) != nil { bits &+= 1 }
        while d.t[i] >= nextDisplay {
            bits ^= p.displayTick(t: nextDisplay, dt: displayPeriod, fault: false)
            nextDisplay += displayPeriod
        }
    }
    return Double(bits)
}
