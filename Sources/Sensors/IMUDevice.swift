import Hardware

/// The accel/gyro chips this build drives, by their config names.
public enum IMUKind: String, CaseIterable, Sendable {
    case mpu6050, mpu6500, mpu9250, icm20948

    public var displayName: String {
        switch self {
        case .mpu6050: return "MPU-6050"
        case .mpu6500: return "MPU-6500"
        case .mpu9250: return "MPU-9250"
        case .icm20948: return "ICM-20948"
        }
    }

    /// Chips whose registers follow the MPU map (WHO_AM_I at 0x75, bypass in INT_PIN_CFG 0x37).
    public var isMPUFamily: Bool { self != .icm20948 }
}

/// Driver settings common to every IMU.
public struct IMUSettings: Sendable, Equatable {
    /// The IMU rate when nothing else is asked for (the config's `rates.imuHz` default): 200 Hz follows the
    /// fastest head motion (under 20 Hz) ten times over and keeps the bus well under a fifth busy at 400 kHz.
    public static let defaultSampleRateHz = 200.0
    public var sampleRateHz = IMUSettings.defaultSampleRateHz
    public var gyroRange: GyroRange = .dps500
    public var accelRange: AccelRange = .g4
    /// Do not insist on the datasheet identity: set when the user pinned the chip in the config, or when detection
    /// found a known register-compatible part (WHO_AM_I is a hint; clones answer odd values).
    public var acceptUnknownIdentity = false
    public init() {}

    /// The divider of a chip that runs at `internalRateHz / (1 + divider)`, for `sampleRateHz` clamped to
    /// `slowestHz...internalRateHz`. Rounded down so the chip is never slower than the loop: a slower chip
    /// would hand the loop the same sample twice (rounding to nearest made a 180 Hz request run an MPU at
    /// 166.7 Hz).
    func sampleRateDivider(internalRateHz: Double, slowestHz: Double) -> UInt8 {
        UInt8(clamping: Int((internalRateHz / max(slowestHz, min(internalRateHz, sampleRateHz))).rounded(.down)) - 1)
    }
}

/// One IMU driver, chosen at start-up. A switch per call instead of an existential: the loop stays generic
/// over the bus, and nothing is boxed or dynamically dispatched per sample. The MPU-6050, MPU-6500 and
/// MPU-9250 are one case: their drivers are one register protocol, with the part's facts inside it.
public enum IMUDevice<Bus: I2CBus> {
    case invenSense(InvenSenseCore<Bus>)
    case icm20948(ICM20948<Bus>)

    public init(kind: IMUKind, bus: Bus, address: UInt8, settings: IMUSettings = IMUSettings()) {
        let mpu = InvenSenseConfiguration(settings: settings)
        switch kind {
        case .mpu6050: self = .invenSense(MPU6050(bus: bus, address: address, configuration: mpu).core)
        case .mpu6500: self = .invenSense(MPU6500(bus: bus, address: address, configuration: mpu).core)
        case .mpu9250: self = .invenSense(MPU9250(bus: bus, address: address, configuration: mpu).core)
        case .icm20948: self = .icm20948(ICM20948(bus: bus, address: address, configuration: .init(settings: settings)))
        }
    }

    public var kind: IMUKind {
        switch self {
        case let .invenSense(core): return core.part.kind
        case .icm20948: return .icm20948
        }
    }

    public var address: UInt8 {
        switch self {
        case let .invenSense(core): return core.address
        case let .icm20948(d): return d.address
        }
    }

    /// The name the chip answered to ("MPU-9255", "MPU-6500 compatible (WHO_AM_I 0x75)"), after initialize.
    public var chipName: String {
        switch self {
        case let .invenSense(core): return core.chipName
        case let .icm20948(d): return d.chipName
        }
    }

    public mutating func initialize(delay: (Double) -> Void, reset: Bool = true) throws(SensorError) {
        switch self {
        case var .invenSense(core): defer { self = .invenSense(core) }; try core.initialize(delay: delay, reset: reset)
        case var .icm20948(d): defer { self = .icm20948(d) }; try d.initialize(delay: delay, reset: reset)
        }
    }

    /// Accelerometer, gyroscope, temperature in SI units, in the chip's own frame.
    @inline(__always)
    public mutating func readIMU() throws(SensorError) -> ImuSample {
        switch self {
        case var .invenSense(core): defer { self = .invenSense(core) }; return try core.readIMU()
        case var .icm20948(d): defer { self = .icm20948(d) }; return try d.readIMU()
        }
    }

    public mutating func configurationIntact() throws(SensorError) -> Bool {
        switch self {
        case var .invenSense(core): defer { self = .invenSense(core) }; return try core.configurationIntact()
        case var .icm20948(d): defer { self = .icm20948(d) }; return try d.configurationIntact()
        }
    }
}
