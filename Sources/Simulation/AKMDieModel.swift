import Geometry
import Sensors

/// What the AKM dies inside an IMU package share (the AK8963 in the MPU-9250, the AK09916 in the ICM-20948;
/// hardware-facts §1.4, §1.6): ST1 with DRDY and DOR, the data little-endian from the byte after ST1, ST2
/// with HOFL; reading the data or ST2 clears DRDY and DOR, and the data stay as they are from the first
/// data read until ST2 is read. The chip models add their modes, scale, axes and reset values.
public class AKMDieModel {
    /// Where one die keeps what the protocol uses.
    struct Layout {
        var registerCount: Int
        /// ST1's and ST2's addresses: the data registers are those between them.
        var st1: Int
        var st2: Int
        /// The registers that are not 0 after power-on or a soft reset.
        var resetValues: [(register: Int, value: UInt8)]
    }

    public var registers: [UInt8]
    public let clock: VirtualClock
    public unowned let host: any MagnetometerHost
    private let layout: Layout
    private var measurements = MagnetometerMeasurements()

    init(_ layout: Layout, clock: VirtualClock, host: any MagnetometerHost) {
        registers = [UInt8](repeating: 0, count: layout.registerCount)
        self.layout = layout
        self.clock = clock
        self.host = host
        powerOnReset()
    }

    /// Power-on and soft reset alike: power-down mode, no data.
    public func powerOnReset() {
        RegisterStorage.powerOn(&registers, layout.resetValues)
        measurements.reset()
    }

    public var isVisible: Bool { host.bypassEnabled }

    /// ST2 bits other than HOFL that each measurement carries (the AK8963's BITM).
    var st2ModeBits: UInt8 { 0 }

    /// The field (µT, host axes) of the measurement due now in continuous mode at `rate`, if one is due; one
    /// that lands on unread data, or after a skipped one, sets DOR.
    func measurementDue(rate: Double) -> Vector3? {
        let unread = registers[layout.st1] & AKM.st1DataReady != 0
        guard let (t, overrun) = measurements.due(now: clock.seconds, rate: rate, unread: unread) else { return nil }
        if overrun { registers[layout.st1] |= AKM.st1DataOverrun }
        return host.sensor.magnetometer(host.motion.state(at: t), at: t)
    }

    /// A measurement in the die's counts: shown now, or when ST2 ends a read under way.
    func measured(_ sample: MagnetometerMeasurements.Sample) { publish(measurements.measured(sample)) }

    /// A new mode: the measurement clock starts afresh and ST1 clears.
    func modeChanged() {
        measurements.restartClock()
        registers[layout.st1] = 0
    }

    /// What reading register `r` does besides returning its value.
    func didRead(_ r: Int) {
        if r > layout.st1 && r < layout.st2 {
            measurements.dataRead()
            registers[layout.st1] &= ~(AKM.st1DataReady | AKM.st1DataOverrun)
        } else if r == layout.st2 {
            registers[layout.st1] &= ~(AKM.st1DataReady | AKM.st1DataOverrun)
            publish(measurements.readEnded())
        }
    }

    private func publish(_ sample: MagnetometerMeasurements.Sample?) {
        guard let p = sample else { return }
        RegisterStorage.storeLittleEndian(p.x, into: &registers, at: layout.st1 + 1)
        RegisterStorage.storeLittleEndian(p.y, into: &registers, at: layout.st1 + 3)
        RegisterStorage.storeLittleEndian(p.z, into: &registers, at: layout.st1 + 5)
        registers[layout.st2] = (p.overflow ? AKM.st2Overflow : 0) | st2ModeBits
        registers[layout.st1] |= AKM.st1DataReady
    }
}
