#if canImport(Glibc)
import Glibc
#endif
import Formats
@testable import Hardware
import Sensors
@testable import Commands
import Simulation
import Testing
import TestSupport

/// `probe` as a user meets it, through the built binary: what it says about a path that is no bus, the
/// buses that exist, and a config value that would reach the terminal raw; and its JSON report of a simulated board.
@Suite struct ProbeCommandTests: HostileFiles {
    typealias P = HeadtrackProcess

    @Test func aDirectoryIsNotABus() {
        let r = P.run(["probe", "--i2c", "/tmp"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("/tmp is a directory, not an I²C bus"))
        #expect(!r.stderr.contains("errno"))
    }

    @Test func aRegularFileOrDevNullIsNotABus() throws {
        let dir = temporaryDirectory("first-use")
        let file = dir + "/regular-file"
        writeText("not a bus\n", to: file)
        let r = P.run(["probe", "--i2c", file])
        #expect(r.status == 1)
        #expect(r.stderr.contains("is not an I²C bus device (a regular file)"))
        #expect(!r.stderr.contains("no IMU answered"))
        let null = P.run(["probe", "--i2c", "/dev/null"])
        #expect(null.status == 1)
        #expect(null.stderr.contains("/dev/null is not an I²C bus device"))
    }

    @Test func theProbeHintNamesTheBusInUseAndTheBusesThatExist() throws {
        let message = SensorError.noIMU(bus: "/dev/i2c-3", addresses: [0x68, 0x69]).description
        #expect(message.contains("i2cdetect -y 3"))
        #expect(!message.contains("i2cdetect -y 1"))
        // A number too long for i2c-dev is no bus number (and is never converted: Int() of it would be nil or trap).
        let odd = SensorError.noIMU(bus: "/dev/i2c-99999999999999999999", addresses: [0x68]).description
        #expect(odd.contains("i2cdetect lists what answers") && !odd.contains("i2cdetect -y"))
        let dir = temporaryDirectory("first-use")
        for name in ["i2c-20", "i2c-1", "i2c-x", "gpiochip0", "i2c-"] { writeText("", to: dir + "/" + name) }
        #expect(LinuxI2CBus.existingBuses(in: dir) == [dir + "/i2c-1", dir + "/i2c-20"])
        let r = P.run(["probe", "--i2c", "/dev/i2c-99"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("buses here:") || r.stderr.contains("no /dev/i2c-* bus at all"))
    }

    @Test func aConfigValueWithTerminalEscapesIsShownEscaped() throws {
        let dir = temporaryDirectory("neighbour")
        let r = HeadtrackProcess.run(["probe", "--config", try config(dir, device: "/dev/" + Self.escape)])
        #expect(r.status == 1)
        #expect(hasNoControlCharacters(r.stderr), "\(Array(r.stderr.utf8.prefix(200)))")
        #expect(r.stderr.contains("\\u{1b}]0;PWNED\\u{7}\\u{1b}[2J"), "\(r.stderr)")
    }

    @Test func aTenMegabyteConfigValueIsCutWithItsLength() throws {
        let dir = temporaryDirectory("neighbour")
        let device = "/dev/" + String(repeating: "i", count: 10_000_000)
        let r = HeadtrackProcess.run(["probe", "--config", try config(dir, device: device)])
        #expect(r.status == 1)
        #expect(r.stderr.utf8.count < 2000, "\(r.stderr.utf8.count) bytes of error")
        #expect(r.stderr.contains("(10000005 bytes)"), "\(r.stderr.prefix(300))")
    }

    @Test func probeJSONNamesTheSimulatedChips() throws {
        let board = SimulatedBoard(motion: .demoStory)
        var bus = board.bus
        let detection = BoardDetector.detect(&bus)
        let v = try JSONParser.parse(ProbeCommand.report(detection, bus: "/dev/i2c-1"))
        #expect(v["bus"] == .string("/dev/i2c-1"))
        #expect(v["imu"]?["chip"] == .string("MPU-9250"))
        #expect(v["imu"]?["address"] == .number(0x68))
        #expect(v["imu"]?["identity"] == .number(0x71))
        #expect(v["magnetometer"]?["chip"] == .string("AK8963"))
        #expect(v["magnetometer"]?["address"] == .number(0x0c))
        #expect(v["magnetometer"]?["in_package"] == .bool(true))
        #expect(v["ok"] == .bool(true))
        #expect(v["error"] == .null)
        guard case let .array(findings)? = v["findings"] else { Issue.record("no findings"); return }
        #expect(findings.count == detection.findings.count && !findings.isEmpty)
    }
}
