import Sensors
import Testing
@testable import Runtime

/// The config's chip choices: validated when read, turned into a detection request.
@Suite struct ChipConfigTests {
    @Test func chipNamesAreValidated() throws {
        for imu in ["auto", "mpu6050", "mpu6500", "mpu9250", "icm20948"] {
            #expect(try Config.parse(#"{"i2c": {"imu": "\#(imu)"}}"#).imu == imu)
        }
        for mag in ["auto", "none", "ak8963", "ak09916", "qmc5883l", "hmc5883l"] {
            #expect(try Config.parse(#"{"i2c": {"magnetometer": "\#(mag)"}}"#).magnetometer == mag)
        }
        #expect(throws: ConfigError(path: "config", message: "i2c.imu: 'mpu9150' is not one of auto, mpu6050, mpu6500, mpu9250, icm20948 (`headtrack probe` names what is on the bus)")) {
            try Config.parse(#"{"i2c": {"imu": "mpu9150"}}"#)
        }
        #expect(throws: ConfigError.self) { try Config.parse(#"{"i2c": {"magnetometer": "HMC5883L"}}"#) }
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
