/// InvenSense MPU-6500/9250/9255 register map (RM-MPU-9250A-00 rev 1.4; shared facts in hardware-facts §1.0).
/// The simulated chip model uses the same constants, so driver and model agree by construction on *names*;
/// tests check *values* against the datasheet.
public enum MPU9250Register {
    public static let smplrtDiv: UInt8 = 0x19
    public static let config: UInt8 = 0x1A
    public static let gyroConfig: UInt8 = 0x1B
    public static let accelConfig: UInt8 = 0x1C
    public static let accelConfig2: UInt8 = 0x1D
    public static let fifoEnable: UInt8 = 0x23
    public static let i2cMasterControl: UInt8 = 0x24
    public static let intPinConfig: UInt8 = 0x37
    public static let intEnable: UInt8 = 0x38
    public static let intStatus: UInt8 = 0x3A
    /// ACCEL_XOUT_H: start of the 14-byte block AX AY AZ T GX GY GZ (big-endian int16).
    public static let accelXHigh: UInt8 = 0x3B
    public static let tempHigh: UInt8 = 0x41
    public static let gyroXHigh: UInt8 = 0x43
    public static let signalPathReset: UInt8 = 0x68
    public static let userControl: UInt8 = 0x6A
    public static let powerManagement1: UInt8 = 0x6B
    public static let powerManagement2: UInt8 = 0x6C
    public static let fifoCountHigh: UInt8 = 0x72
    public static let fifoReadWrite: UInt8 = 0x74
    public static let whoAmI: UInt8 = 0x75
}

public enum MPU9250Bits {
    /// PWR_MGMT_1 H_RESET.
    public static let deviceReset: UInt8 = 0x80
    /// PWR_MGMT_1 SLEEP.
    public static let sleep: UInt8 = 0x40
    /// PWR_MGMT_1 CLKSEL = 1: PLL when ready, else internal oscillator.
    public static let clockAutoPLL: UInt8 = 0x01
    /// INT_PIN_CFG BYPASS_EN: the auxiliary bus (AK8963) appears on the host bus.
    public static let bypassEnable: UInt8 = 0x02
    /// USER_CTRL I2C_MST_EN.
    public static let i2cMasterEnable: UInt8 = 0x20
}

/// AKM AK8963 (inside the MPU-9250/9255) register map (AKM MS1356-E-02 §8).
public enum AK8963Register {
    public static let address: UInt8 = 0x0C
    public static let wia: UInt8 = 0x00
    public static let st1: UInt8 = 0x02
    public static let hxl: UInt8 = 0x03
    public static let st2: UInt8 = 0x09
    public static let cntl1: UInt8 = 0x0A
    public static let cntl2: UInt8 = 0x0B
    public static let asax: UInt8 = 0x10
}

/// WIA holds `AKM.companyID`; ST1/ST2 bits and the data read are in `AKM` too.
public enum AK8963Value {
    public static let powerDown: UInt8 = 0x00
    public static let fuseROMAccess: UInt8 = 0x0F
    /// 16-bit output, continuous measurement mode 2 (100 Hz).
    public static let continuous100Hz16Bit: UInt8 = 0x16
    /// 0.15 µT per LSB in 16-bit mode.
    public static let microteslaPerLSB16: Double = 4912.0 / 32760.0
}

/// Full-scale settings and their datasheet sensitivities (DS9250 Tables 1–2).
public enum GyroRange: UInt8, Sendable, CaseIterable {
    case dps250 = 0, dps500 = 1, dps1000 = 2, dps2000 = 3
    /// Value for GYRO_CONFIG (FS_SEL in bits 4:3).
    public var registerValue: UInt8 { rawValue << 3 }
    public var lsbPerDegreePerSecond: Double { [131.0, 65.5, 32.8, 16.4][Int(rawValue)] }
}

public enum AccelRange: UInt8, Sendable, CaseIterable {
    case g2 = 0, g4 = 1, g8 = 2, g16 = 3
    public var registerValue: UInt8 { rawValue << 3 }
    public var lsbPerG: Double { [16384.0, 8192.0, 4096.0, 2048.0][Int(rawValue)] }
}
