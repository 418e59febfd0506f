import Hardware
import Runtime
import Sensors

/// `headtrack probe`: what is on the bus, and what the pipeline would use.
struct ProbeCommand: Command {
    static let name = "probe"
    static let summary = "scan the I²C bus, identify the IMU and magnetometer, say what `run` will use"
    static let help = """
        usage: headtrack probe [--i2c DEV]

        Reads the identity registers at 0x68/0x69 (WHO_AM_I) and, with the MPU's bypass switched on, the
        AK8963 magnetometer at 0x0C (WIA). WHO_AM_I is a hint (clones answer odd values); a magnetometer is
        trusted only when its own ID answers. Exits 1 when no IMU answers.

        options:
          --i2c DEV   I²C bus device (default /dev/i2c-1)
        """

    static func run(_ arguments: inout Arguments) throws -> Int32 {
        let device = try arguments.option("i2c") ?? "/dev/i2c-1"
        try arguments.finish()
        var bus = try HardwareSession.openBus(device)
        Console.out("probing \(device)")
        let imus = IMUProbe.scanIMU(&bus)
        if imus.isEmpty {
            Console.out("  nothing answered at 0x68 or 0x69")
            throw CommandError(SensorError.noIMU(bus: device, addresses: [0x68, 0x69]).description)
        }
        for f in imus { Console.out("  \(f)") }
        let imu = imus[0]
        var magnetometer: ProbeFinding? = nil
        if imu.value == 0x71 || imu.value == 0x73 {
            // The AK8963 sits behind the MPU: switch its I²C master off and the bypass on to see it.
            try? bus.writeRegister(address: imu.address, register: MPU9250Register.powerManagement1, value: 0x01)
            try? bus.writeRegister(address: imu.address, register: MPU9250Register.userControl, value: 0x00)
            try? bus.writeRegister(address: imu.address, register: MPU9250Register.intPinConfig, value: MPU9250Bits.bypassEnable)
            magnetometer = IMUProbe.scanAK8963(&bus)
            if let m = magnetometer { Console.out("  \(m)") } else { Console.out("  0x0c: no AK8963 answered behind the MPU") }
        }
        let imuName = imu.chip ?? "unknown IMU"
        if imu.value == 0x71 || imu.value == 0x73 {
            let mag = magnetometer?.chip != nil ? " with its AK8963 magnetometer" : " without magnetometer (no heading)"
            Console.out("pipeline will use: \(imuName) at \(hex(imu.address))\(mag)")
            return 0
        }
        Console.out("pipeline: \(imuName) (WHO_AM_I \(hex(imu.value))) is not supported by this build yet; supported: MPU-9250 (0x71), MPU-9255 (0x73)")
        return 1
    }
}
