import Geometry
import Hardware
import Simulation
import Testing
@testable import Sensors

/// Detection by identity registers, with the boards makers actually buy, and the drivers it hands on.
@Suite struct BoardDetectionTests {
    func detect(_ b: SimulatedBreakout, _ request: DetectionRequest = DetectionRequest()) -> Detection {
        var bus = b.bus
        return BoardDetector.detect(&bus, request: request)
    }

    /// Detects, builds the board, initialises it and reads a few samples: the detected drivers must work, the
    /// IMU's samples must be the simulated motion, and a detected magnetometer must deliver.
    /// (The breakout needs sensor noise, as real chips have: noise-free identical samples are frozen data.)
    func bringUp(_ b: SimulatedBreakout, _ request: DetectionRequest = DetectionRequest()) throws -> SensorBoard<SimulatedI2CBus> {
        let detection = detect(b, request)
        var board = try detection.makeBoard(bus: b.bus)
        try board.initialize(delay: { b.clock.advance(seconds: $0) })
        var mags = 0
        for _ in 0..<10 {
            b.clock.advance(seconds: 0.011)
            let sample = try board.readIMU()
            // The chip samples at 200 Hz: its latest sample is from the last 5 ms tick.
            let truth = ChipTest.truth(b.motion, at: (b.clock.seconds * 200).rounded(.down) / 200)
            #expect((sample.accel - truth.accel).length < 0.5, "accel \(sample.accel), truth \(truth.accel)")
            #expect((sample.gyro - truth.gyro).length < 0.05, "gyro \(sample.gyro), truth \(truth.gyro)")
            if try board.readMagnetometer() != nil { mags += 1 }
        }
        #expect(board.hasMagnetometer == (detection.magnetometer != nil))
        #expect((mags > 0) == (detection.magnetometer != nil), "\(mags) magnetometer samples")
        return board
    }

    @Test(arguments: [
        (SimulatedIMUPart.mpu6050, IMUKind.mpu6050, "MPU-6050"),
        (.mpu6500, .mpu6500, "MPU-6500"),
        (.mpu9250, .mpu9250, "MPU-9250"),
        (.mpu9255, .mpu9250, "MPU-9255"),
        (.icm20948, .icm20948, "ICM-20948"),
    ])
    func eachIMUIsFoundByItsIdentity(part: SimulatedIMUPart, kind: IMUKind, name: String) throws {
        let b = ChipTest.breakout(part, sensor: SensorModel())
        let d = detect(b)
        #expect(d.imu?.kind == kind)
        #expect(d.imu?.address == 0x68)
        #expect(d.findings.first?.hasPrefix("0x68: \(name)") == true, "\(d.findings)")
        let board = try bringUp(b)
        #expect(board.chipName.hasPrefix(name))
    }

    @Test func inPackageMagnetometersAreFoundBehindTheBypass() throws {
        let nine = detect(ChipTest.breakout(.mpu9250))
        #expect(nine.magnetometer?.kind == .ak8963)
        #expect(nine.findings == ["0x68: MPU-9250 (WHO_AM_I 0x71)", "0x0c: AK8963 magnetometer behind the MPU's bypass (WIA 0x48)"])
        let icm = detect(ChipTest.breakout(.icm20948, address: 0x69))
        #expect(icm.imu?.address == 0x69)
        #expect(icm.magnetometer?.kind == .ak09916)
        #expect(icm.usage == "ICM-20948 driver for the chip at 0x69 + AK09916 (in the IMU's package)")
    }

    @Test func mpu9250CloneAnswering0x70WithoutMagnetometer() throws {
        let b = ChipTest.breakout(.mpuClone(whoAmI: 0x70, hasAK8963: false))
        let d = detect(b)
        #expect(d.imu?.kind == .mpu6500)
        #expect(d.magnetometer == nil)
        #expect(d.notes.contains { $0.contains("no magnetometer answered") })
        let board = try bringUp(b)
        #expect(!board.hasMagnetometer)
    }

    @Test func cloneWithOddWhoAmIButARealAK8963() throws {
        // 0x75 "with the mag returning 0xFF or 0" is also reported; this one has a working AK8963.
        let b = ChipTest.breakout(.mpuClone(whoAmI: 0x75, hasAK8963: true), sensor: SensorModel())
        let d = detect(b)
        #expect(d.imu?.kind == .mpu6500)
        #expect(d.imu?.acceptUnknownIdentity == true)
        #expect(d.magnetometer?.kind == .ak8963)
        #expect(d.notes.contains { $0.contains("WHO_AM_I 0x75") })
        _ = try bringUp(b)
    }

    @Test func hmcBoardThatIsReallyAQMC() throws {
        let b = ChipTest.breakout(.mpu6050, .qmc5883l)
        let d = detect(b)
        #expect(d.magnetometer?.kind == .qmc5883l)
        #expect(!d.findings.contains { $0.hasPrefix("0x1e") })
        // Pinning the HMC5883L the board was sold as fails, naming what is there instead.
        let pinned = detect(b, DetectionRequest(magnetometer: .pinned(.hmc5883l)))
        #expect(pinned.failure?.description.contains("no HMC5883L answered") == true)
        #expect(pinned.failure?.description.contains("qmc5883l") == true)
        #expect(throws: SensorError.self) { _ = try pinned.makeBoard(bus: b.bus) }
    }

    @Test func gy87HMCAppearsOnlyThroughTheMPU6050Bypass() throws {
        let b = ChipTest.breakout(.mpu6050, .hmc5883lBehindIMU)
        #expect(throws: I2CError.noAcknowledge(address: 0x1E)) { _ = try ChipTest.readBytes(b.bus, 0x1E, 0x0A, 3) }
        let d = detect(b)
        #expect(d.magnetometer?.kind == .hmc5883l)
        #expect(d.notes.contains { $0.contains("aligned with the IMU") })
        _ = try bringUp(b)
    }

    @Test func icmLeftInAnotherBankIsStillFound() throws {
        let b = ChipTest.breakout(.icm20948)
        try b.bus.writeRegister(address: 0x68, register: 0x7F, value: 0x20)
        #expect(detect(b).imu?.kind == .icm20948)
        #expect(b.icm20948!.bank == 0)
    }

    @Test func mpuOffsetTrimAt0x7FIsNeverWritten() {
        let b = ChipTest.breakout(.mpu9250)
        _ = detect(b)
        #expect(!b.bus.writes.contains { $0.address == 0x68 && $0.register == 0x7F })
    }

    @Test func nothingOnTheBus() {
        let d = detect(ChipTest.breakout(nil))
        #expect(d.failure == .noIMU(bus: "simulated bus", addresses: [0x68, 0x69]))
        #expect(d.findings.isEmpty)
    }

    @Test func unknownChipIsNotDrivenUnlessPinned() throws {
        let b = ChipTest.breakout(.mpuClone(whoAmI: 0x42, hasAK8963: false))
        let d = detect(b)
        guard case let .unexpectedIdentity(_, address, _, found, _)? = d.failure else {
            Issue.record("expected an identity failure, got \(String(describing: d.failure))")
            return
        }
        #expect(address == 0x68 && found == 0x42)
        let pinned = detect(b, DetectionRequest(imu: .mpu6500))
        #expect(pinned.failure == nil)
        #expect(pinned.imu?.kind == .mpu6500)
        let board = try bringUp(b, DetectionRequest(imu: .mpu6500))
        #expect(board.chipName.contains("0x42"))
    }

    @Test func pinnedIMUWinsOverItsIdentity() throws {
        // A 0x70 chip pinned as mpu9250 (the user knows better): the MPU-9250 driver, told to accept it.
        let b = ChipTest.breakout(.mpuClone(whoAmI: 0x70, hasAK8963: true), sensor: SensorModel())
        let d = detect(b, DetectionRequest(imu: .mpu9250))
        #expect(d.imu?.kind == .mpu9250 && d.imu?.acceptUnknownIdentity == true)
        #expect(d.magnetometer?.kind == .ak8963)
        _ = try bringUp(b, DetectionRequest(imu: .mpu9250))
    }

    @Test func magnetometerCanBeTurnedOffOrChosen() throws {
        let b = ChipTest.breakout(.mpu9250, .qmc5883l)
        #expect(detect(b).magnetometer?.kind == .ak8963)  // in-package first
        #expect(detect(b, DetectionRequest(magnetometer: .pinned(.qmc5883l))).magnetometer?.kind == .qmc5883l)
        #expect(detect(b, DetectionRequest(magnetometer: .none)).magnetometer == nil)
    }

    @Test func standaloneMagnetometerMountIsApplied() throws {
        // A QMC5883L breakout turned 90° about z on the headset: its x along the IMU's y, its y along the IMU's −x.
        let mount = try Mount(parsing: "-y,x,z")  // IMU x (forward) is the QMC's −y, IMU y is its x, z shared
        let b = ChipTest.breakout(.mpu6500, .qmc5883l, sensor: SensorModel())  // magNoise 0.3 µT
        b.qmc5883l!.mountOnIMU = mount
        var board = try detect(b).makeBoard(bus: b.bus, magnetometerMount: mount)
        try board.initialize(delay: { b.clock.advance(seconds: $0) })
        var checked = 0
        for _ in 0..<20 {
            b.clock.advance(seconds: 0.031)
            guard let m = try board.readMagnetometer() else { continue }
            let truth = ChipTest.truth(b.motion, at: (b.clock.seconds * 100).rounded(.down) / 100).field
            #expect((m.field - truth).length < 1.6)  // 3σ of the noise on three axes
            checked += 1
        }
        #expect(checked > 15)
    }

    /// The kernel answers EBUSY on I2C_SLAVE for an address its own driver (inv_mpu6050) has bound.
    struct KernelOwnedBus: I2CBus {
        var name = "/dev/i2c-1"
        mutating func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>) throws(I2CError) {
            if address == 0x68 { throw I2CError.from(errno: 16, address: address) }
            throw .noAcknowledge(address: address)
        }
        mutating func writeRegister(address: UInt8, register: UInt8, value: UInt8) throws(I2CError) {
            if address == 0x68 { throw I2CError.from(errno: 16, address: address) }
            throw .noAcknowledge(address: address)
        }
    }

    @Test func anAddressHeldByAKernelDriverIsNamedAsSuch() throws {
        var bus = KernelOwnedBus()
        let detection = BoardDetector.detect(&bus)
        let failure = try #require(detection.failure)
        #expect(failure == .bus(.addressInUse(address: 0x68)))
        #expect(failure.description.contains("0x68 is in use by a kernel driver"))
        #expect(failure.description.contains("dtoverlay"))
        #expect(!failure.description.contains("wiring"))
        #expect(detection.findings.contains { $0.contains("UU") })
    }
}
