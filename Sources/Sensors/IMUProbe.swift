import Hardware

/// What answered where on a bus, found by reading identity registers. WHO_AM_I is a hint only:
/// clones answer odd values, so the probe names what it saw and lets the caller decide.
public struct ProbeFinding: Sendable, Equatable, CustomStringConvertible {
    public var address: UInt8
    public var register: UInt8
    public var value: UInt8
    public var chip: String?

    public var description: String {
        let what = chip ?? "unknown chip"
        return "\(hex(address)): \(what) (register \(hex(register)) = \(hex(value)))"
    }
}

public enum IMUProbe {
    /// WHO_AM_I (0x75) values of the InvenSense family (hardware-facts §1.1).
    public static let whoAmINames: [UInt8: String] = [
        0x68: "MPU-6050", 0x70: "MPU-6500", 0x71: "MPU-9250", 0x73: "MPU-9255",
        0x74: "MPU-6515", 0x78: "MPU-6880", 0x98: "ICM-20689 (or an MPU-6050 clone)",
    ]

    /// Reads WHO_AM_I at 0x68 and 0x69. Returns the findings for addresses that acknowledged.
    public static func scanIMU<Bus: I2CBus>(_ bus: inout Bus, addresses: [UInt8] = [0x68, 0x69]) -> [ProbeFinding] {
        var found: [ProbeFinding] = []
        for a in addresses {
            if let v = try? bus.readRegister(address: a, register: MPU9250Register.whoAmI) {
                found.append(ProbeFinding(address: a, register: MPU9250Register.whoAmI, value: v, chip: whoAmINames[v]))
            }
        }
        return found
    }

    /// Reads the AK8963's WIA at 0x0C (only visible with the MPU's bypass enabled).
    public static func scanAK8963<Bus: I2CBus>(_ bus: inout Bus) -> ProbeFinding? {
        guard let v = try? bus.readRegister(address: AK8963Register.address, register: AK8963Register.wia) else { return nil }
        return ProbeFinding(address: AK8963Register.address, register: AK8963Register.wia, value: v,
                            chip: v == AK8963Value.deviceID ? "AK8963 magnetometer" : nil)
    }
}
