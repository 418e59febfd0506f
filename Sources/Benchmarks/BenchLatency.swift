import Indicators
import Service
import Sensors
import SimulatedRuns
import Simulation

/// Simulated end-to-end latency: from the end of a scripted nod to the nod LED going on, through the whole
/// production path (simulated chip registers → driver → fusion → gesture detector → 60 Hz display tick →
/// GPIO lines), on the simulation clock with real bus time per transfer.
public struct NodLatency: Sendable {
    public var readout: ImuReadout
    /// LED-on time minus end of the nod, per scripted nod (s); nil where the LED never came on.
    public var latencies: [Double?] = []
    public var detected: Int { latencies.compactMap { $0 }.count }
    public var median: Double { Benchmarks.median(latencies.compactMap { $0 }) }
    public var minimum: Double { latencies.compactMap { $0 }.min() ?? .nan }
    public var maximum: Double { latencies.compactMap { $0 }.max() ?? .nan }

    /// Nods of 15° down and back up, 0.25 s each way (peak 94 °/s), 2 s apart, after 3 s still. The motion
    /// of each nod ends at rest exactly when its second half-wave ends, so "end of the nod" is well defined.
    public static func script(nods: Int) -> MotionScript {
        var s = MotionScript(initialHeading: 30)
        s.append(.still(duration: 3))
        for _ in 0..<nods {
            s.append(.pitch(to: 15, duration: 0.25))
            s.append(.pitch(to: 0, duration: 0.25))
            s.append(.still(duration: 2))
        }
        return s
    }

    public static func measure(readout: ImuReadout, imuHz: Double = 200, nods: Int = 7) throws(SensorError) -> NodLatency {
        var options = SimulatedLoopOptions()
        options.readout = readout
        options.config.rates.imuHz = imuHz
        options.script = script(nods: nods)
        let board = SimulatedLoop.board(options, busTime: true)
        var loop = try SimulatedLoop.make(board: board, clock: board.clock, options: options)
        loop.run(duration: options.script.duration - board.clock.seconds + 0.5, shouldStop: { false }, observer: { _, _ in })
        let on = board.leds.onIntervals(line: Led.nod.rawValue, until: board.clock.seconds).map(\.start)
        var result = NodLatency(readout: readout)
        for i in 0..<nods {
            let nodStart = 3 + Double(i) * 2.5
            let nodEnd = nodStart + 0.5
            // The LED edge that belongs to this nod: the first one after it began and before the next.
            let edge = on.first { $0 >= nodStart && $0 < nodStart + 2.5 }
            result.latencies.append(edge.map { $0 - nodEnd })
        }
        return result
    }
}
