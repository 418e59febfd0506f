import Hardware
import Formats
import Service
import Sensors

/// `headtrack probe`: what is on the bus, and what the pipeline would use.
struct ProbeCommand: Command {
    static let name = "probe"
    static let summary = "scan the I²C bus, identify the IMU and magnetometer, say what `run` will use"
    static let help = options.help("""
        usage: headtrack probe [--i2c DEV] [--config FILE] [--json]

        Reads identity registers: WHO_AM_I (0x75) at 0x68/0x69 for the MPU-6050/6500/9250/9255, bank-0
        register 0x00 for the ICM-20948; then, with the IMU's bypass switched on, the magnetometer in its
        package at 0x0C (AK8963 WIA 0x48, AK09916 WIA 0x48/0x09), a QMC5883L at 0x0D (chip ID 0xff) and an
        HMC5883L at 0x1E ('H43'). WHO_AM_I is a hint (clones answer odd values); a magnetometer is trusted
        only when its own ID answers. Prints one line per chip that answered, notes on what is not used,
        and the drivers `run` will use with the config's i2c.imu / i2c.magnetometer choices, and the mount
        `run` will use and where it comes from (the config, the file 'calibrate --mount' learned, or none).
        Exits 1 when no usable IMU answers.
        """, outro: """
        example output:
          0x68: MPU-9250 (WHO_AM_I 0x71)
          0x0c: AK8963 magnetometer behind the MPU's bypass (WIA 0x48)
          pipeline will use: MPU-9250 driver for the chip at 0x68 + AK8963 (in the IMU's package)
          mount: -x,z,y (learned, /var/lib/headtrack/mount.json)
        """)

    static let options = OptionTable(helpColumn: 18, [
        .value("i2c", "DEV", "I²C bus device (default from the config, else /dev/i2c-1)"),
        .value("config", "FILE", """
            JSON config whose i2c.imu, i2c.imuAddress and i2c.magnetometer apply
            (default /etc/headtrack/config.json when it exists)
            """),
        .flag("json", """
            print one JSON object instead (bus, imu {chip, address, identity}, magnetometer
            {chip, address, in_package}, findings, notes, usage, mount, mount_source, ok,
            error); same exit status
            """),
    ])

    static func run(_ arguments: inout Arguments) throws -> Int32 {
        let file = try HardwareSession.loadConfig(try arguments.option("config"))
        var overrides = SessionPlan.Overrides()
        overrides.i2cDevice = try arguments.option("i2c")
        let json = arguments.flag("json")
        try arguments.finish()
        // Planned as `run` plans it, so the mount said is the one `run` uses; its warnings follow the findings.
        var warnings: [String] = []
        let plan = SessionPlan(config: file, overrides: overrides, reading: .mount, warn: { warnings.append($0) })
        let config = plan.config, mount = plan.mount
        var bus = try HardwareSession.openBus(config.i2cDevice)
        let detection = BoardDetector.detect(&bus, request: config.detectionRequest)
        if json {
            Console.out(report(detection, bus: config.i2cDevice, mount: mount))
            for w in warnings { Console.err(w) }
            return detection.failure == nil ? 0 : 1
        }
        Console.out("probing \(config.i2cDevice)")
        if detection.findings.isEmpty { Console.out("  nothing answered at 0x68, 0x69, 0x0c, 0x0d or 0x1e") }
        for f in detection.findings { Console.out("  " + f) }
        for n in detection.notes { Console.out("  note: " + n) }
        if let failure = detection.failure { throw CommandError(failure.description) }
        Console.out("pipeline will use: \(detection.usage)")
        for w in warnings { Console.out("  note: " + w) }
        Console.out("mount: " + mount.summary)
        return 0
    }

    /// The findings as one JSON object, for scripts (addresses as numbers; `hex` strings would need parsing).
    static func report(_ d: Detection, bus: String, mount: MountInUse = MountInUse(mount: nil, source: .none)) -> String {
        JSONOutput.object(.compact) { o in
            o.add("bus", .string(bus))
            o.add("imu", d.imu.map { imu in
                .object { i in
                    i.add("chip", .string(imu.kind.displayName))
                    i.add("address", .integer(imu.address))
                    i.add("identity", .integer(imu.identity))
                }
            } ?? .null)
            o.add("magnetometer", d.magnetometer.map { mag in
                .object { m in
                    m.add("chip", .string(mag.kind.displayName))
                    m.add("address", .integer(mag.kind.address))
                    m.add("in_package", .bool(mag.kind.isInPackage))
                }
            } ?? .null)
            o.add("findings", .array(d.findings.map { .string($0) }))
            o.add("notes", .array(d.notes.map { .string($0) }))
            o.add("usage", .string(d.usage))
            o.add("mount", .string(mount.mount == nil ? nil : mount.text))
            o.add("mount_source", .string(mount.source.rawValue))
            o.add("ok", .bool(d.failure == nil))
            o.add("error", .string(d.failure?.description))
        }.text()
    }
}
