import EventStream
import Formats
import Sensors
import Simulation
import Tracking
import Testing
@testable import Service

/// The event stream's hello names the chips as `probe` does (it once said "MPU-9250 compatible
/// (WHO_AM_I 0x00)", built from a driver that had not read its identity yet). Truth: the datasheet name of the
/// WHO_AM_I each simulated part answers, and the finding line `probe` prints for it.
@Suite struct StreamHelloTests {
    @Test(arguments: [(SimulatedIMUPart.mpu9250, "MPU-9250"), (.mpu9255, "MPU-9255"), (.mpu6500, "MPU-6500"),
                      (.mpu6050, "MPU-6050 (or MPU-9150)"), (.icm20948, "ICM-20948")])
    func theHelloNamesTheIMUAsProbeDoes(part: SimulatedIMUPart, datasheetName: String) throws {
        let board = SimulatedBreakout(imu: part, motion: .demoStory)
        let session = try TrackerSession(bus: board.bus, lines: board.leds, clock: board.clock, config: Config())
        let hello = StreamHello(detection: session.detection, rates: LoopRates(), stateHz: 60)
        #expect(hello.imu == datasheetName)
        // What `probe` prints for the IMU's address: "0x68: MPU-9250 (WHO_AM_I 0x71)".
        #expect(session.detection.findings.contains { $0.hasPrefix("0x68: \(datasheetName) (") }, "\(session.detection.findings)")
    }

    @Test func theServiceSendsThatHelloBeforeTheSensorsStart() throws {
        let board = SimulatedBreakout(imu: .mpu9250, magnetometer: nil, motion: .demoStory)
        let session = try TrackerSession(bus: board.bus, lines: board.leds, clock: board.clock, config: Config())
        let path = "/tmp/headtrack-hello-\(UInt32.random(in: 0...UInt32.max)).sock"
        var overrides = SessionPlan.Overrides()
        overrides.socket = path
        let service = try Service(session: session, plan: SessionPlan(config: Config(), overrides: overrides), options: ServiceOptions())
        defer { service.stream?.stop() }
        let line = service.stream?.server.helloLine ?? ""
        #expect(line.hasPrefix(#"{"type":"hello","version":1,"imu":"MPU-9250","magnetometer":"AK8963""#), "\(line)")
    }
}
