import Geometry
import Hardware

/// The sensors of one headset: an IMU and, optionally, a magnetometer, on one bus. What the loop drives.
/// Every reading comes out in the IMU's chip frame, in SI units, screened for frozen and corrupted data;
/// the head mount is applied later, once, by the pipeline.
///
/// Both drivers hold the bus. Buses are classes (LinuxI2CBus, SimulatedI2CBus), so they share one
/// connection; a value-type bus would need to be wrapped in a class first.
public struct SensorBoard<Bus: I2CBus> {
    public var imu: IMUDevice<Bus>
    public var magnetometer: MagnetometerDevice<Bus>?
    /// How a standalone magnetometer's axes sit relative to the IMU's (identity: aligned). In-package
    /// magnetometers are aligned by their drivers, as their datasheets fix it; this is not applied to them.
    public let magnetometerMount: Mount
    public private(set) var screen: SampleScreen
    /// The IMU was re-initialised: an in-package magnetometer lost power with it and needs the same
    /// (`checkMagnetometer` does it).
    public private(set) var magnetometerNeedsInitialize = false

    public init(imu: IMUDevice<Bus>, magnetometer: MagnetometerDevice<Bus>?, magnetometerMount: Mount = .identity,
                screen: SampleScreen.Settings = SampleScreen.Settings()) {
        self.imu = imu
        self.magnetometer = magnetometer
        self.magnetometerMount = magnetometerMount
        self.screen = SampleScreen(settings: screen)
    }

    public var hasMagnetometer: Bool { magnetometer != nil }

    /// "MPU-9250 at 0x68 + AK8963", "MPU-6050 at 0x68 + QMC5883L at 0x0d", "ICM-20948 at 0x69, no magnetometer".
    public var chipName: String {
        let head = "\(imu.chipName) at \(hex(imu.address))"
        guard let m = magnetometer?.kind else { return head + ", no magnetometer" }
        return head + " + " + m.displayName + (m.isInPackage ? "" : " at \(hex(m.address))")
    }

    public mutating func initialize(delay: (Double) -> Void) throws(SensorError) {
        try imu.initialize(delay: delay, reset: true)
        screen.forgetIMU()
        if magnetometer != nil { try initializeMagnetometer(delay: delay) }
    }

    // MARK: Per sample

    /// One screened IMU sample; throws on a bus error, frozen data or a corrupted sample.
    public mutating func readIMU() throws(SensorError) -> ImuSample {
        let s: ImuSample
        do { s = try imu.readIMU() } catch {
            screen.forgetIMU()
            throw error
        }
        try screen.check(s)
        return s
    }

    /// The same screening for a sample read another way (the FIFO readout in `TrackerLoop`).
    public mutating func screenIMU(_ s: ImuSample) throws(SensorError) { try screen.check(s) }

    /// Forgets the IMU screen's history (after a FIFO reset: the next sample follows a gap).
    public mutating func forgetIMUHistory() { screen.forgetIMU() }

    /// One screened magnetometer poll in the IMU's frame; nil when no new measurement was ready.
    public mutating func readMagnetometer() throws(SensorError) -> MagSample? {
        guard magnetometer != nil else { return nil }
        var m: MagSample?
        do { m = try magnetometer!.read() } catch {
            if case .bus = error { screen.forgetMagnetometer() }
            throw error
        }
        if var sample = m, !magnetometer!.kind.isInPackage {
            sample.field = magnetometerMount.apply(sample.field)
            m = sample
        }
        try screen.check(m)
        return m
    }

    // MARK: Health

    /// Reads back the IMU's configuration; if the chip was reset (power glitch), re-initialises it without a
    /// reset pulse (it was just reset) and returns true. An in-package magnetometer lost power with the
    /// IMU: `magnetometerNeedsInitialize` is set, for `checkMagnetometer` to re-initialise it.
    public mutating func checkIMU(delay: (Double) -> Void) throws(SensorError) -> Bool {
        if try imu.configurationIntact() { return false }
        try imu.initialize(delay: delay, reset: false)
        screen.forgetIMU()
        if magnetometer?.kind.isInPackage == true { magnetometerNeedsInitialize = true }
        return true
    }

    /// Same for the magnetometer; returns true when it was re-initialised.
    public mutating func checkMagnetometer(delay: (Double) -> Void) throws(SensorError) -> Bool {
        guard magnetometer != nil else { return false }
        if magnetometerNeedsInitialize {
            try initializeMagnetometer(delay: delay)
            return true
        }
        if try magnetometer!.configurationIntact() { return false }
        try initializeMagnetometer(delay: delay)
        return true
    }

    private mutating func initializeMagnetometer(delay: (Double) -> Void) throws(SensorError) {
        try magnetometer!.initialize(delay: delay)
        magnetometerNeedsInitialize = false
        screen.forgetMagnetometer()
    }
}
