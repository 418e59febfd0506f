#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Formats
import Testing
@testable import Commands

/// The command line of `headtrack view` and of `calibrate --socket`: usage errors say what to do, and serving
/// the stream changes nothing about the calibration that is saved.
@Suite struct ViewAndCalibrationStreamTests: InProcessCommands {
    @Test func viewUsageErrors() {
        #expect(HeadtrackProcess.run(["view", "--port", "70000"]).status == 2)
        #expect(HeadtrackProcess.run(["view", "--port", "http"]).status == 2)
        #expect(HeadtrackProcess.run(["view", "--socket", ""]).status == 2)
        let extra = HeadtrackProcess.run(["view", "--bind", "0.0.0.0"])
        #expect(extra.status == 2 && extra.stderr.contains("unknown option '--bind'"))
    }

    @Test func aPortInUseIsAClearError() {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { p in p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        listen(fd, 1)
        _ = withUnsafeMutablePointer(to: &address) { p in p.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let r = HeadtrackProcess.run(["view", "--port", String(port), "--socket", "/tmp/headtrack-none.sock"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("port \(port) on 127.0.0.1 is in use") && r.stderr.contains("--port"))
    }

    @Test func speedNeedsATraceAndASocket() {
        let r = HeadtrackProcess.run(["calibrate", "--trace", "/tmp/x.csv", "--speed", "4"])
        #expect(r.status == 2 && r.stderr.contains("needs --trace and --socket"))
        #expect(HeadtrackProcess.run(["calibrate", "--trace", "/tmp/x.csv", "--socket", "/tmp/s.sock", "--speed", "0.001"]).status == 2)
    }

    @Test func streamingTheCalibrationSavesTheSameFit() throws {
        let hardIron = Vector3(-20, 8, 33)
        let text = CalibrateAndEvalAttitudeTests.tumbleTrace(hardIron: hardIron, samples: 5000)
        let trace = temporaryPath("tumble.csv"), plain = temporaryPath("plain.json"), streamed = temporaryPath("streamed.json")
        let socket = temporaryPath("cal.sock")
        try FileIO.writeAtomically(trace, Array(text.utf8))
        defer { for p in [trace, plain, streamed, socket] { unlink(p) } }
        #expect(run(["calibrate", "--trace", trace, "--skip-gyro", "--out", plain]) == 0)
        #expect(run(["calibrate", "--trace", trace, "--skip-gyro", "--out", streamed, "--socket", socket, "--speed", "0"]) == 0)
        var a = try CalibrationStore(path: plain).load(), b = try CalibrationStore(path: streamed).load()
        #expect((a.magnetometer.hardIron - hardIron).length < 0.3)
        a.createdUnixTime = nil
        b.createdUnixTime = nil
        #expect(a == b)
        #expect(!FileIO.exists(socket))  // the stream's socket is gone after the run
    }
}
