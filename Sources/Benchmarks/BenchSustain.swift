import Service
import Sensors
import SimulatedRuns

/// Can the loop keep 1 kHz? The production loop on the simulated board for `seconds` of simulated time as
/// fast as possible, with every I²C transfer costing its real bus time at 400 kHz (so the bus budget of
/// hardware-facts §6 is what is tested; the CPU time per wake-up is reported next to it).
public struct SustainedRate: Sendable {
    public var readout: ImuReadout
    public var imuHz: Double
    public var report: SimulatedLoopReport
    public var expectedSamples: Int64

    public static func measure(readout: ImuReadout, imuHz: Double = 1000, seconds: Double = 60) throws(SensorError) -> SustainedRate {
        var options = SimulatedLoopOptions()
        options.readout = readout
        options.config.rates.imuHz = imuHz
        let report = try SimulatedLoop.runFullSpeed(options, duration: seconds)
        return SustainedRate(readout: readout, imuHz: imuHz, report: report, expectedSamples: Int64(seconds * imuHz))
    }
}
