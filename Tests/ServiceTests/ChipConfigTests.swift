import Sensors
import Testing
@testable import Formats
@testable import Service

/// The config's chip choices: validated when read, turned into a detection request.
@Suite struct ChipConfigTests {
    @Test func chipNamesAreValidated() throws {
        let imus: [(String, IMUKind?)] = [("auto", nil), ("mpu6050", .mpu6050), ("mpu6500", .mpu6500),
                                           ("mpu9250", .mpu9250), ("icm20948", .icm20948)]
        for (name, kind) in imus {
            #expect(try Config.parse(#"{"i2c": {"imu": "\#(name)"}}"#).imu == kind)
        }
        let mags: [(String, MagnetometerChoice)] = [("auto", .auto), ("none", .none), ("ak8963", .pinned(.ak8963)),
                                                    ("ak09916", .pinned(.ak09916)), ("qmc5883l", .pinned(.qmc5883l)),
                                                    ("hmc5883l", .pinned(.hmc5883l))]
        for (name, choice) in mags {
            #expect(try Config.parse(#"{"i2c": {"magnetometer": "\#(name)"}}"#).magnetometer == choice)
        }
        #expect(throws: ConfigError(path: "config", line: 1, message: "i2c.imu: 'mpu9150' is not one of auto, mpu6050, mpu6500, mpu9250, icm20948 (`headtrack probe` names what is on the bus)")) {
            try Config.parse(#"{"i2c": {"imu": "mpu9150"}}"#)
        }
        #expect(throws: ConfigError.self) { try Config.parse(#"{"i2c": {"magnetometer": "HMC5883L"}}"#) }
    }

    @Test func gesturePresetIsTypedAndItsNamesComeFromTheEnum() throws {
        #expect(try Config.parse(#"{"gestures": {"preset": "sensitive"}}"#).gesturePreset == .sensitive)
        #expect(Config().gesturePreset == .normal)
        #expect(throws: ConfigError(path: "config", line: 1, message: "gestures.preset: 'Firm' is not one of sensitive, normal, firm")) {
            try Config.parse(#"{"gestures": {"preset": "Firm"}}"#)
        }
    }

    /// The IMU rate range is the MPU family's (1 kHz base of the sample-rate divider); 10 Hz is the floor.
    @Test func imuRateLimitsAreTheDocumentedOnes() throws {
        #expect(try Config.parse(#"{"rates": {"imuHz": 1000}}"#).rates.imuHz == 1000)
        #expect(try Config.parse(#"{"rates": {"imuHz": 10}}"#).rates.imuHz == 10)
        #expect(throws: ConfigError.self) { try Config.parse(#"{"rates": {"imuHz": 1000.5}}"#) }
        #expect(throws: ConfigError.self) { try Config.parse(#"{"rates": {"imuHz": 9.5}}"#) }
        #expect(ConfigLimits.text(ConfigLimits.imuHz) == "10...1000")
    }

    @Test func detectionRequestFollowsTheConfig() throws {
        let c = try Config.parse(#"{"i2c": {"imu": "icm20948", "imuAddress": 105, "magnetometer": "qmc5883l"}}"#)
        #expect(c.detectionRequest == DetectionRequest(imu: .icm20948, imuAddress: 0x69, magnetometer: .pinned(.qmc5883l)))
        #expect(try Config.parse(#"{"i2c": {"magnetometer": "none"}}"#).detectionRequest.magnetometer == .none)
        #expect(Config().detectionRequest == DetectionRequest())
    }

    @Test func magnetometerMountAndFrozenDataSwitch() throws {
        let c = try Config.parse(#"{"magnetometerMount": "-y,x,z", "i2c": {"detectFrozenData": false}}"#)
        #expect(c.magnetometerMount.description == "-y,x,z")
        #expect(c.screenSettings.imuFrozenAfter == Int.max)
        #expect(Config().screenSettings.imuFrozenAfter == 20)
        #expect(throws: ConfigError.self) { try Config.parse(#"{"magnetometerMount": "x,y,-z"}"#) }  // mirrored
    }

    @Test func summaryNamesEveryKind() {
        var f = FaultCounters()
        f.count(.bus(.noAcknowledge(address: 0x68)))
        f.count(.frozenData("x"))
        f.count(.corruptedSample("x"))
        f.magnetometerOverruns = 2
        #expect(f.total == 3)
        for word in ["nack=1", "frozen=1", "corrupted=1", "mag-overruns=2", "mag-overflow=0", "chip-resets=0", "short=0", "timeout=0", "io=0"] {
            #expect(f.summary.contains(word), "\(word) missing from \(f.summary)")
        }
    }
}
