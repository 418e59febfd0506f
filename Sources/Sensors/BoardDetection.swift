import Hardware
import Geometry

/// Which magnetometer to use: found automatically, none, or one named in the config.
public enum MagnetometerChoice: Sendable, Equatable {
    case auto, none, pinned(MagnetometerKind)
}

/// What the config asks for: `imu` nil means auto-detect; `imuAddress` nil means try 0x68, then 0x69.
public struct DetectionRequest: Sendable, Equatable {
    public var imu: IMUKind? = nil
    public var imuAddress: UInt8? = nil
    public var magnetometer: MagnetometerChoice = .auto
    public init(imu: IMUKind? = nil, imuAddress: UInt8? = nil, magnetometer: MagnetometerChoice = .auto) {
        self.imu = imu; self.imuAddress = imuAddress; self.magnetometer = magnetometer
    }
}

/// What answered on the bus, and what the pipeline will use.
public struct Detection: Sendable {
    public struct IMU: Sendable, Equatable {
        public var kind: IMUKind
        public var address: UInt8
        /// The identity register's value (WHO_AM_I 0x75, or bank-0 register 0x00 on the ICM-20948).
        public var identity: UInt8
        /// The driver must not insist on the datasheet identity (pinned, or a register-compatible part).
        public var acceptUnknownIdentity: Bool
        /// The name its identity register gives ("MPU-9255"; "MPU-6500 compatible" for a clone), as `probe`
        /// prints it: what the event stream's hello and the logs call the chip.
        public var name: String
    }
    public struct Magnetometer: Sendable, Equatable {
        public var kind: MagnetometerKind
        public var acceptUnknownIdentity: Bool
    }

    /// The bus that was probed ("/dev/i2c-1").
    public var bus = ""
    /// One line per address that answered: "0x68: MPU-9250 (WHO_AM_I 0x71)".
    public var findings: [String] = []
    /// Why something that answered is not used, or what is assumed.
    public var notes: [String] = []
    public var imu: IMU? = nil
    public var magnetometer: Magnetometer? = nil
    /// Set when the request cannot be met (nothing usable answered, or a pinned chip is missing).
    public var failure: SensorError? = nil
    /// IMU addresses a kernel driver holds (EBUSY), so they could not be probed.
    public var addressesInUse: [UInt8] = []

    /// "MPU-9250 at 0x68 with its AK8963 magnetometer" / "... without a magnetometer (no heading)".
    public var usage: String {
        guard let imu else { return "nothing usable" }
        let head = "\(imu.kind.displayName) driver for the chip at \(hex(imu.address))"
        guard let m = magnetometer?.kind else { return head + ", no magnetometer (no heading, north LED off)" }
        return head + " + " + m.displayName + (m.isInPackage ? " (in the IMU's package)" : " at \(hex(m.address))")
    }

    /// The drivers for what was detected. Throws `failure`, when set, with what to do about it.
    public func makeBoard<Bus: I2CBus>(bus: Bus, settings: IMUSettings = IMUSettings(), magnetometerMount: Mount = .identity,
                                       screen: SampleScreen.Settings? = nil) throws(SensorError) -> SensorBoard<Bus> {
        if let failure { throw failure }
        guard let imu else { throw .noIMU(bus: bus.name, addresses: [0x68, 0x69]) }
        var s = settings
        s.acceptUnknownIdentity = s.acceptUnknownIdentity || imu.acceptUnknownIdentity
        let device = IMUDevice(kind: imu.kind, bus: bus, address: imu.address, settings: s)
        let mag = magnetometer.map {
            MagnetometerDevice(kind: $0.kind, bus: bus, acceptUnknownIdentity: $0.acceptUnknownIdentity)
        }
        return SensorBoard(imu: device, magnetometer: mag, magnetometerMount: magnetometerMount,
                           screen: screen ?? SampleScreen.Settings(imuRateHz: settings.sampleRateHz))
    }
}

/// Finds the IMU and magnetometer by their identity registers. Each chip's file has its `probe` (which
/// registers to read, what the values mean); this only orders the candidates and decides which answer is
/// used. WHO_AM_I is a hint: clones answer odd values, so known register-compatible values are used with a
/// note and unknown ones only when the config pins the chip. A magnetometer is trusted only when its own ID
/// answers (hardware-facts §1.1, §1.7). Probing writes only what initialisation writes anyway (wake, I²C
/// master off, bypass on).
public enum BoardDetector {
    public static func detect<Bus: I2CBus>(_ bus: inout Bus, request: DetectionRequest = DetectionRequest()) -> Detection {
        var d = Detection()
        d.bus = bus.name
        let addresses: [UInt8] = request.imuAddress.map { [$0] } ?? [0x68, 0x69]
        var unknown: (address: UInt8, value: UInt8)? = nil
        for a in addresses {
            switch identifyIMU(&bus, address: a, pinned: request.imu, detection: &d) {
            case .absent: continue
            case let .unknown(value): if unknown == nil { unknown = (a, value) }
            case let .found(imu): if d.imu == nil { d.imu = imu }
            }
        }
        if d.imu == nil {
            if let u = unknown {
                d.failure = .unexpectedIdentity(bus: bus.name, address: u.address, register: MPU9250Register.whoAmI, found: u.value,
                                                expected: "a known IMU (0x68 MPU-6050, 0x70 MPU-6500, 0x71/0x73 MPU-9250/9255, or 0xea in register 0x00 for the ICM-20948); if it is a clone, pin the driver with \"i2c\": {\"imu\": \"mpu6500\"} in the config")
            } else if let busy = d.addressesInUse.first {
                d.failure = .bus(.addressInUse(address: busy))
            } else {
                d.failure = .noIMU(bus: bus.name, addresses: addresses)
            }
        }
        detectMagnetometer(&bus, request: request, detection: &d)
        return d
    }

    // MARK: IMU

    enum IMUResult { case absent, unknown(UInt8), found(Detection.IMU) }

    /// The datasheet identities, in the order they are tried (one WHO_AM_I read serves all three).
    static func mpuIdentity<Bus: I2CBus>(_ bus: Bus.Type, _ who: UInt8) -> (IMUKind, String)? {
        if let name = MPU6050<Bus>.probe(whoAmI: who) { return (.mpu6050, name) }
        if let name = MPU6500<Bus>.probe(whoAmI: who) { return (.mpu6500, name) }
        if let name = MPU9250<Bus>.probe(whoAmI: who) { return (.mpu9250, name) }
        return nil
    }

    static func identifyIMU<Bus: I2CBus>(_ bus: inout Bus, address a: UInt8, pinned: IMUKind?,
                                         detection d: inout Detection) -> IMUResult {
        let who: UInt8
        do { who = try MPU9250<Bus>.readWhoAmI(&bus, address: a) } catch {
            // EBUSY: a kernel driver (inv_mpu6050 from dtoverlay=mpu6050) owns the address; i2cdetect shows UU.
            // Saying "nothing answered, check the wiring" would send the user the wrong way.
            if case .addressInUse = error {
                d.findings.append("\(hex(a)): in use by a kernel driver (UU)")
                d.addressesInUse.append(a)
            }
            return .absent
        }
        if let known = mpuIdentity(Bus.self, who) {
            d.findings.append("\(hex(a)): \(known.1) (WHO_AM_I \(hex(who)))")
            guard let p = pinned, p != known.0 else {
                return .found(.init(kind: known.0, address: a, identity: who, acceptUnknownIdentity: false, name: known.1))
            }
            d.notes.append("\(hex(a)) answers like an \(known.0.displayName), but the config pins the \(p.displayName) driver: using it")
            if p == .icm20948 { _ = ICM20948<Bus>.probe(&bus, address: a) }
            return .found(.init(kind: p, address: a, identity: who, acceptUnknownIdentity: true, name: known.1))
        }
        if let name = MPU6500<Bus>.probeCompatible(whoAmI: who), pinned == nil || pinned!.isMPUFamily {
            d.findings.append("\(hex(a)): \(name) (WHO_AM_I \(hex(who)))")
            let kind = pinned ?? .mpu6500
            d.notes.append("WHO_AM_I \(hex(who)) is not a datasheet value of the parts this build knows; its registers follow the MPU-6500 map, so the \(kind.displayName) driver reads it")
            return .found(.init(kind: kind, address: a, identity: who, acceptUnknownIdentity: true, name: name))
        }
        if let icm = ICM20948<Bus>.probe(&bus, address: a), icm == ICM20948Value.whoAmI {
            d.findings.append("\(hex(a)): ICM-20948 (bank 0 register 0x00 = \(hex(icm)))")
            if let p = pinned, p != .icm20948 {
                d.notes.append("\(hex(a)) answers like an ICM-20948, but the config pins the \(p.displayName) driver: using it")
                return .found(.init(kind: p, address: a, identity: who, acceptUnknownIdentity: true, name: "ICM-20948"))
            }
            return .found(.init(kind: .icm20948, address: a, identity: icm, acceptUnknownIdentity: false, name: "ICM-20948"))
        }
        d.findings.append("\(hex(a)): unknown chip (WHO_AM_I \(hex(who)))")
        if let p = pinned {
            d.notes.append("the config pins the \(p.displayName) driver for the unknown chip at \(hex(a)): using it")
            return .found(.init(kind: p, address: a, identity: who, acceptUnknownIdentity: true,
                                name: "\(p.displayName) compatible (WHO_AM_I \(hex(who)))"))
        }
        d.notes.append("\(hex(a)) is not used: its identity is unknown (a real-time clock such as the DS3231 also lives at 0x68); pin \"i2c\": {\"imu\": ...} if it is an IMU clone")
        return .unknown(who)
    }

    // MARK: Magnetometer

    /// The candidates in order: the IMU's own magnetometer behind its bypass first (its alignment with the
    /// IMU is fixed by the datasheet), then the standalone breakouts at 0x0D and 0x1E.
    static func probeMagnetometers<Bus: I2CBus>(_ bus: inout Bus, imu: Detection.IMU?) -> [(MagnetometerKind, MagnetometerProbe)] {
        var probes: [(MagnetometerKind, MagnetometerProbe)] = []
        if let imu {
            if imu.kind == .icm20948 {
                ICM20948<Bus>.openBypass(&bus, address: imu.address)
                probes.append((.ak09916, AK09916<Bus>.probe(&bus)))
            } else {
                MPU9250<Bus>.openBypass(&bus, address: imu.address)
                probes.append((.ak8963, AK8963<Bus>.probe(&bus, behind: imu.kind)))
            }
        }
        probes.append((.qmc5883l, QMC5883L<Bus>.probe(&bus)))
        probes.append((.hmc5883l, HMC5883L<Bus>.probe(&bus)))
        return probes
    }

    static func detectMagnetometer<Bus: I2CBus>(_ bus: inout Bus, request: DetectionRequest, detection d: inout Detection) {
        var candidates: [MagnetometerKind] = []
        var unverified: [MagnetometerKind] = []  // something answers at the address, without the right ID
        for (kind, probe) in probeMagnetometers(&bus, imu: d.imu) {
            d.findings += probe.findings
            d.notes += probe.notes
            switch probe.answer {
            case .identified: candidates.append(kind)
            case .unidentified: unverified.append(kind)
            case .silent, .other: break
            }
        }
        switch request.magnetometer {
        case .none:
            if !candidates.isEmpty { d.notes.append("the config turns the magnetometer off (\"magnetometer\": \"none\")") }
        case .auto:
            // The IMU's own magnetometer first: its alignment with the IMU is fixed by the datasheet.
            if let k = candidates.first {
                d.magnetometer = .init(kind: k, acceptUnknownIdentity: false)
                if candidates.count > 1 {
                    d.notes.append("several magnetometers answer; using the \(k.displayName) (set i2c.magnetometer to choose)")
                }
                if !k.isInPackage {
                    d.notes.append("the \(k.displayName)'s axes are taken as aligned with the IMU's; set \"magnetometerMount\" if the breakout sits otherwise")
                }
            } else if d.imu != nil {
                d.notes.append("no magnetometer answered with its own ID: tracking without heading")
            }
        case let .pinned(k):
            if candidates.contains(k) {
                d.magnetometer = .init(kind: k, acceptUnknownIdentity: false)
            } else if k == .qmc5883l && unverified.contains(.qmc5883l) {
                // Early QMC5883L revisions left register 0x0D reserved; the user says it is one.
                d.magnetometer = .init(kind: k, acceptUnknownIdentity: true)
                d.notes.append("0x0d does not answer the QMC5883L chip ID 0xff; using it because the config pins the qmc5883l")
            } else if d.failure == nil {
                d.failure = .magnetometerMissing(bus: bus.name, detail: "the config pins the \(k.rawValue) but no \(k.displayName) answered with its ID at \(hex(k.address))" + (candidates.isEmpty ? "" : "; found: \(candidates.map(\.rawValue).joined(separator: ", ")) (set i2c.magnetometer to auto to use it)"))
            }
        }
    }
}
