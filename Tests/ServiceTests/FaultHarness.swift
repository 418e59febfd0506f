import Geometry
import Hardware
import Indicators
import Sensors
import Simulation
import Testing
@testable import Tracking
@testable import Formats
@testable import Service

/// Runs the real loop (detection, drivers, screen, pipeline, LEDs) on a simulated breakout with faults
/// injected on the bus or in the chips, and records what came out. Times are absolute simulated seconds.
final class FaultRun {
    var start = 0.0
    var imuTimes: [Double] = []
    var magTimes: [Double] = []
    var faults: [(t: Double, error: SensorError)] = []
    var reinitializations: [Double] = []
    /// Anything non-finite seen in a sample, the attitude, the heading or the displayed heading.
    var nonFinite: [String] = []
    var counters = FaultCounters()
    var finalAttitude = Quaternion.identity
    var breakout: SimulatedBreakout!
    var end = 0.0

    /// Seconds from `t` to the first IMU sample delivered at or after it.
    func imuRecovery(after t: Double) -> Double? { imuTimes.first { $0 >= t - 1e-9 }.map { $0 - t } }
    func magRecovery(after t: Double) -> Double? { magTimes.first { $0 >= t - 1e-9 }.map { $0 - t } }
    func faults(in range: Range<Double>) -> [(t: Double, error: SensorError)] { faults.filter { range.contains($0.t) } }
    func samples(in range: Range<Double>) -> [Double] { imuTimes.filter { range.contains($0) } }

    /// The status LED's on-intervals that start inside `range`.
    func statusFlashes(in range: Range<Double>) -> [(start: Double, end: Double)] {
        breakout.leds.onIntervals(line: Led.status.rawValue, until: end).filter { range.contains($0.start) }
    }

    /// Fault pattern: 5 Hz, 0.1 s on / 0.1 s off, flash after flash (two 60 Hz display ticks of slack).
    func statusShowsFault(during range: Range<Double>) -> Bool {
        let flashes = statusFlashes(in: range)
        let expected = Int(((range.upperBound - range.lowerBound) / 0.2).rounded(.down))
        let slack = 2.0 / 60
        return flashes.count >= max(expected - 1, 1) && flashes.allSatisfy { $0.end - $0.start <= 0.1 + slack }
            && zip(flashes, flashes.dropFirst()).allSatisfy { $1.start - $0.start <= 0.2 + slack }
            && flashes.first!.start - range.lowerBound <= 0.2 + slack
    }

    /// Heartbeat: one ~0.1 s flash per second.
    func statusShowsHeartbeat(during range: Range<Double>) -> Bool {
        let flashes = statusFlashes(in: range)
        let seconds = range.upperBound - range.lowerBound
        return Double(flashes.count) <= seconds + 1 && Double(flashes.count) >= seconds - 1
            && flashes.allSatisfy { $0.end - $0.start <= 0.1 + 2.0 / 60 }
    }
}

enum FaultHarness {
    /// Level head, still, then slow turns: motion the filter and the screen see all the time.
    static func script(duration: Double) -> MotionScript {
        var s = MotionScript(initialHeading: 20)
        s.append(.still(duration: 0.6))
        while s.duration < duration + 2 {
            s.append(.turn(toHeading: 80, duration: 1.5))
            s.append(.turn(toHeading: 20, duration: 1.5))
        }
        return s
    }

    /// Builds the breakout, detects and starts the sensors, calls `inject` with the breakout and the loop's
    /// start time, then runs the loop for `duration` simulated seconds.
    static func run(imu: SimulatedIMUPart = .mpu9250, magnetometer: SimulatedMagnetometerPart? = nil,
                    config: Config = Config(), duration: Double = 3.0,
                    inject: (SimulatedBreakout, Double) -> Void) throws -> FaultRun {
        let record = FaultRun()
        let motion = script(duration: duration)
        let b = SimulatedBreakout(imu: imu, magnetometer: magnetometer, motion: motion, sensor: SensorModel())
        record.breakout = b
        var bus = b.bus
        let board = try BoardDetector.detect(&bus, request: config.detectionRequest)
            .makeBoard(bus: bus, settings: config.imuSettings, magnetometerMount: config.magnetometerMount,
                       screen: config.screenSettings)
        var loop = TrackerLoop(driver: board, lines: b.leds, clock: b.clock,
                               pipeline: Pipeline(settings: config.pipelineSettings), rates: config.rates)
        try loop.start()
        let start = b.clock.seconds
        record.start = start
        inject(b, start)
        loop.run(duration: duration, shouldStop: { false }) { event, pipeline in
            switch event {
            case let .imu(t, sample, mag):
                record.imuTimes.append(t + start)
                if mag != nil { record.magTimes.append(t + start) }
                if !sample.accel.isFinite || !sample.gyro.isFinite { record.nonFinite.append("sample at \(t)") }
                if let m = mag, !m.isFinite { record.nonFinite.append("mag at \(t)") }
            case let .fault(t, error): record.faults.append((t + start, error))
            case let .reinitialized(t): record.reinitializations.append(t + start)
            default: break
            }
            if !pipeline.attitude.isFinite { record.nonFinite.append("attitude") }
            if !pipeline.heading.degrees.isFinite { record.nonFinite.append("heading") }
            if !pipeline.displayed.degrees.isFinite { record.nonFinite.append("displayed heading") }
        }
        loop.ledsOff()
        record.counters = loop.faults
        record.finalAttitude = loop.pipeline.attitude
        record.end = b.clock.seconds
        return record
    }

    /// The angle (degrees) between the filter's attitude and the script's truth at `t`.
    static func attitudeError(_ q: Quaternion, truth s: MotionScript, at t: Double) -> Double {
        (s.state(at: t).attitude.conjugate * q).normalized.angle * 180 / Double.pi
    }
}

/// Counts of every kind but the ones named, for "nothing else went wrong".
extension FaultCounters {
    var kinds: [String: Int] {
        ["nack": noAcknowledge, "io": ioError, "timeout": timeout, "short": shortRead, "implausible": implausibleData,
         "frozen": frozenData, "corrupted": corruptedSamples, "overflow": magneticOverflow, "resets": chipResets,
         "reinitFailures": reinitFailures]
    }

    func others(than names: Set<String>) -> [String: Int] { kinds.filter { !names.contains($0.key) && $0.value != 0 } }
}
