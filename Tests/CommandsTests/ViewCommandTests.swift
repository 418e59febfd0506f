#if canImport(Glibc)
import Glibc
#endif
import Testing

/// The command line of `headtrack view`: usage errors say what to do, and a port in use is named.
@Suite struct ViewCommandTests {
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
}
