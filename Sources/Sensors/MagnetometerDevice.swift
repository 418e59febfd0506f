import Geometry
import Hardware

/// The magnetometers this build drives, by their config names.
public enum MagnetometerKind: String, CaseIterable, Sendable {
    case ak8963, ak09916, qmc5883l, hmc5883l

    public var displayName: String {
        switch self {
        case .ak8963: return "AK8963"
        case .ak09916: return "AK09916"
        case .qmc5883l: return "QMC5883L"
        case .hmc5883l: return "HMC5883L"
        }
    }

    /// In the IMU's package (behind its bypass), with an axis alignment fixed by the datasheet; the others
    /// are separate breakouts whose axes are assumed aligned with the IMU's unless a magnetometer mount says otherwise.
    public var isInPackage: Bool { self == .ak8963 || self == .ak09916 }

    public var address: UInt8 {
        switch self {
        case .ak8963, .ak09916: return 0x0C
        case .qmc5883l: return 0x0D
        case .hmc5883l: return 0x1E
        }
    }
}

/// One magnetometer driver, chosen at start-up; a switch per call, no existential.
public enum MagnetometerDevice<Bus: I2CBus> {
    case ak8963(AK8963<Bus>)
    case ak09916(AK09916<Bus>)
    case qmc5883l(QMC5883L<Bus>)
    case hmc5883l(HMC5883L<Bus>)

    /// `acceptUnknownIdentity` only matters for the QMC5883L, whose early revision left its ID register reserved.
    public init(kind: MagnetometerKind, bus: Bus, acceptUnknownIdentity: Bool = false) {
        switch kind {
        case .ak8963: self = .ak8963(AK8963(bus: bus))
        case .ak09916: self = .ak09916(AK09916(bus: bus))
        case .qmc5883l:
            var d = QMC5883L(bus: bus)
            d.acceptUnknownIdentity = acceptUnknownIdentity
            self = .qmc5883l(d)
        case .hmc5883l: self = .hmc5883l(HMC5883L(bus: bus))
        }
    }

    public var kind: MagnetometerKind {
        switch self {
        case .ak8963: return .ak8963
        case .ak09916: return .ak09916
        case .qmc5883l: return .qmc5883l
        case .hmc5883l: return .hmc5883l
        }
    }

    public mutating func initialize(delay: (Double) -> Void) throws(SensorError) {
        switch self {
        case var .ak8963(d): defer { self = .ak8963(d) }; try d.initialize(delay: delay)
        case var .ak09916(d): defer { self = .ak09916(d) }; try d.initialize(delay: delay)
        case var .qmc5883l(d): defer { self = .qmc5883l(d) }; try d.initialize(delay: delay)
        case var .hmc5883l(d): defer { self = .hmc5883l(d) }; try d.initialize(delay: delay)
        }
    }

    /// A new measurement in µT, in the IMU's frame for in-package chips and in the chip's own frame for
    /// standalone ones; nil when none is ready.
    @inline(__always)
    public mutating func read() throws(SensorError) -> MagSample? {
        switch self {
        case var .ak8963(d): defer { self = .ak8963(d) }; return try d.read()
        case var .ak09916(d): defer { self = .ak09916(d) }; return try d.read()
        case var .qmc5883l(d): defer { self = .qmc5883l(d) }; return try d.read()
        case var .hmc5883l(d): defer { self = .hmc5883l(d) }; return try d.read()
        }
    }

    public mutating func configurationIntact() throws(SensorError) -> Bool {
        switch self {
        case var .ak8963(d): defer { self = .ak8963(d) }; return try d.configurationIntact()
        case var .ak09916(d): defer { self = .ak09916(d) }; return try d.configurationIntact()
        case var .qmc5883l(d): defer { self = .qmc5883l(d) }; return try d.configurationIntact()
        case var .hmc5883l(d): defer { self = .hmc5883l(d) }; return try d.configurationIntact()
        }
    }
}
