import Geometry
import Sensors

/// The IMU on a simulated breakout board, as makers buy them.
public enum SimulatedIMUPart: Sendable, Equatable {
    case mpu6050
    /// An MPU-6500: the MPU-9250 model without its AK8963 die, answering 0x70.
    case mpu6500
    case mpu9250, mpu9255
    case icm20948
    /// A clone sold as an MPU-9250: the MPU-6500 register set answering `whoAmI`, with or without a
    /// working AK8963 behind the bypass.
    case mpuClone(whoAmI: UInt8, hasAK8963: Bool)
}

/// A magnetometer on its own breakout.
public enum SimulatedMagnetometerPart: Sendable, Equatable {
    case qmc5883l
    case hmc5883l
    /// An HMC5883L on the MPU-6050's auxiliary bus (GY-87): answers only with the IMU's bypass open.
    case hmc5883lBehindIMU
}

/// A simulated breakout (any supported IMU, optionally a separate magnetometer) with LEDs, on one virtual
/// clock and one motion script. `SimulatedBoard` is the MPU-9250 case the demo uses; this one covers every chip.
public final class SimulatedBreakout {
    public let clock: VirtualClock
    public let bus: SimulatedI2CBus
    public let leds: RecordingOutputLines
    public let motion: MotionScript
    public private(set) var mpu9250: InvenSenseModel? = nil
    public private(set) var mpu6050: InvenSenseModel? = nil
    public private(set) var icm20948: ICM20948Model? = nil
    public private(set) var ak8963: AK8963Model? = nil
    public private(set) var ak09916: AK09916Model? = nil
    public private(set) var qmc5883l: QMC5883LModel? = nil
    public private(set) var hmc5883l: HMC5883LModel? = nil
    public let imuAddress: UInt8

    public init(imu: SimulatedIMUPart?, magnetometer: SimulatedMagnetometerPart? = nil, motion: MotionScript,
                sensor: SensorModel = SensorModel(), imuAddress: UInt8 = 0x68, ledCount: Int = 8) {
        clock = VirtualClock()
        bus = SimulatedI2CBus(clock: clock)
        leds = RecordingOutputLines(count: ledCount, clock: clock)
        self.motion = motion
        self.imuAddress = imuAddress
        func attach<Chip: SimulatedChip>(_ chip: Chip, at address: UInt8) -> Chip {
            bus.attach(chip, at: address)
            return chip
        }
        var host: (any AuxiliaryBusHost)? = nil
        func mpu(_ who: UInt8, ak: Bool) {
            let m = attach(InvenSenseModel(part: .mpu6500Family(whoAmI: who), clock: clock, motion: motion, sensor: sensor), at: imuAddress)
            mpu9250 = m
            host = m
            if ak { ak8963 = attach(AK8963Model(clock: clock, host: m), at: 0x0C) }
        }
        switch imu {
        case .none: break
        case .mpu6050:
            let m = attach(InvenSenseModel(part: .mpu6050, clock: clock, motion: motion, sensor: sensor), at: imuAddress)
            mpu6050 = m
            host = m
        case .mpu6500: mpu(0x70, ak: false)
        case .mpu9250: mpu(0x71, ak: true)
        case .mpu9255: mpu(0x73, ak: true)
        case let .mpuClone(who, hasAK): mpu(who, ak: hasAK)
        case .icm20948:
            let m = attach(ICM20948Model(clock: clock, motion: motion, sensor: sensor), at: imuAddress)
            icm20948 = m
            ak09916 = attach(AK09916Model(clock: clock, host: m), at: 0x0C)
        }
        switch magnetometer {
        case .none: break
        case .qmc5883l:
            qmc5883l = attach(QMC5883LModel(clock: clock, motion: motion, sensor: sensor), at: 0x0D)
        case .hmc5883l, .hmc5883lBehindIMU:
            let h = HMC5883LModel(clock: clock, motion: motion, sensor: sensor)
            if magnetometer == .hmc5883lBehindIMU { h.auxiliaryHost = host }
            hmc5883l = attach(h, at: 0x1E)
        }
    }

    /// Addresses that lose power together with the IMU (the IMU and the magnetometer in its package).
    public var imuPackageAddresses: [UInt8] {
        ak8963 != nil || ak09916 != nil ? [imuAddress, 0x0C] : [imuAddress]
    }
}
