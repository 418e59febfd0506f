import Geometry
import Hardware
import Tracking
import Formats
import Service
import Sensors
import Simulation
import Testing

/// The loop's readouts on the simulated board with real I²C time per transfer (400 kHz): in FIFO mode the
/// samples carry the chip's sample instants, whatever the wake-ups do; overflows are caught and recovered.
@Suite struct TrackerLoopTimingTests {
    static func loop(readout: ImuReadout, imuHz: Double, board: SimulatedBoard)
        throws -> TrackerLoop<SimulatedI2CBus, RecordingOutputLines, VirtualClock> {
        var config = Config()
        config.rates.imuHz = imuHz
        var bus = board.bus
        let driver = try BoardDetector.detect(&bus, request: config.detectionRequest)
            .makeBoard(bus: bus, settings: config.imuSettings, screen: config.screenSettings)
        var loop = TrackerLoop(driver: driver, lines: board.leds, clock: board.clock, pipeline: Pipeline(),
                               rates: config.rates)
        loop.readout = readout
        try loop.start()
        return loop
    }

    static func board() -> SimulatedBoard {
        let board = SimulatedBoard(motion: .demoStory)
        board.bus.busClockHz = 400_000
        return board
    }

    @Test func fifoSamplesCarryTheChipsSampleInstants() throws {
        let board = Self.board()
        var loop = try Self.loop(readout: .fifo, imuHz: 200, board: board)
        let origin = board.clock.seconds  // the loop's t = 0
        var times: [Double] = []
        loop.run(duration: 5, shouldStop: { false }) { event, _ in
            if case let .imu(t, _, _) = event { times.append(t + origin) }
        }
        // The chip takes sample k at k × 5 ms; each stamp must be one of those instants (to within the start-up
        // poll resolution), consecutive, none missing, none twice.
        let period = 0.005
        let indices = times.map { ($0 / period).rounded() }
        let worst = zip(times, indices).map { abs($0 - $1 * period) }.max() ?? 1
        #expect(worst < 0.0001)
        #expect(zip(indices, indices.dropFirst()).allSatisfy { $1 - $0 == 1 })
        // Every sample taken after the FIFO started and before the last drain was delivered.
        #expect(times.count >= 999 && times.count <= 1000)
        #expect(loop.fifoOverflows == 0)
        #expect(loop.faults.overruns == 0)
        // Polling at the same rate stamps deadlines instead; the wake-ups here run late behind bus transfers,
        // which the FIFO stamps do not see.
        #expect(loop.timing.wakeLateness.maximum > 0)
    }

    @Test func aStalledBusOverflowsTheFIFOAndTheLoopRecovers() throws {
        let board = Self.board()
        // 100 ms without an answer from the IMU: at 1 kHz, 100 samples pile up in a FIFO that holds 42.
        board.bus.faults = [(start: 3.0, end: 3.1, address: 0x68, fault: .noAcknowledge)]
        var loop = try Self.loop(readout: .fifo, imuHz: 1000, board: board)
        let origin = board.clock.seconds
        var times: [Double] = []
        loop.run(duration: 5, shouldStop: { false }) { event, _ in
            if case let .imu(t, _, _) = event { times.append(t + origin) }
        }
        #expect(loop.fifoOverflows == 1)
        #expect(loop.fifoClock.samplesLost >= 95 && loop.fifoClock.samplesLost <= 105)
        #expect(loop.faults.noAcknowledge > 0)
        // After the reset, samples continue on the chip's 1 ms grid, in order.
        let after = times.filter { $0 > 3.2 }
        let indices = after.map { ($0 / 0.001).rounded() }
        #expect(zip(after, indices).allSatisfy { abs($0 - $1 * 0.001) < 0.0001 })
        #expect(zip(indices, indices.dropFirst()).allSatisfy { $1 - $0 == 1 })
        #expect(after.count > 1700)
    }

    @Test func pollingStampsTheDeadlinesAndKeepsTheRate() throws {
        let board = Self.board()
        var loop = try Self.loop(readout: .polling, imuHz: 1000, board: board)
        var times: [Double] = []
        loop.run(duration: 2, shouldStop: { false }) { event, _ in
            if case let .imu(t, _, _) = event { times.append(t) }
        }
        #expect(times.count == 2000)
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 0.001) < 1e-9 })
        #expect(loop.faults.overruns == 0)  // 14 + 8 + 2×1 bytes in the worst millisecond: 840 µs of bus time
        #expect(loop.timing.tick.count > 0 && loop.timing.imuRead.count == 2000)
    }
}
