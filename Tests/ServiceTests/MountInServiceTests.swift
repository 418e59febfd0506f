#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Formats
import Simulation
import Testing
import TestSupport
@testable import Service

/// The mount `run` planned is what the stream's hello and systemd's status line say.
@Suite struct MountInServiceTests {
    @Test func helloAndStatusSayWhichMountAndWhereItCameFrom() throws {
        let path = "/tmp/headtrack-mount-hello-\(getpid()).sock"
        let board = SimulatedBoard(motion: .demoStory)
        // A learned mount beside the config's calibration file, as `calibrate --mount` leaves it.
        let dir = temporaryDirectory("mount-service")
        writeText(#"{"version": 1, "mount": "-x,z,y"}"#, to: dir + "/mount.json")
        var file = Config()
        file.calibrationFile = dir + "/calibration.json"
        var overrides = SessionPlan.Overrides()
        overrides.socket = path
        let plan = SessionPlan(config: file, overrides: overrides, reading: .mount, warn: { Issue.record("unexpected warning: \($0)") })
        let learned = plan.mount
        let session = try TrackerSession(bus: board.bus, lines: board.leds, clock: board.clock, config: plan.config)
        var options = ServiceOptions()
        options.duration = 0.5
        options.quiet = true
        var service = try Service(session: session, plan: plan, options: options)
        let client = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
        let connected = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(connected == 0)
        try service.run()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(client, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        let text = String(decoding: buffer[0..<max(n, 0)], as: UTF8.self)
        let hello = try JSONParser.parse(String(text.prefix { $0 != "\n" }))
        #expect(hello["type"] == .string("hello"))
        #expect(hello["mount"] == .string("-x,z,y"))
        #expect(hello["mount_source"] == .string("learned"))
        #expect(service.session.loop.pipeline.settings.mount?.description == "-x,z,y")

        #expect(ServiceStatus(device: "MPU-9250", mount: learned).text == "tracking with MPU-9250; mount -x,z,y (learned)")
        #expect(ServiceStatus(device: "MPU-9250", mount: MountInUse(mount: nil, source: .none)).text == "tracking with MPU-9250; mount none")
    }
}
