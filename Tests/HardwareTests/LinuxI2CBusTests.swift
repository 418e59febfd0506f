#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
@testable import Hardware

/// The bus's lock: a second user is refused with the holder's pid.
@Suite struct LinuxI2CBusTests {
    /// Another process holding the bus (the service) is named with its pid, before any register is touched.
    @Test func aSecondUserOfTheBusIsRefusedWithTheHoldersPid() throws {
        let dir = temporaryDirectory("first-use")
        let file = dir + "/bus"
        writeText("", to: file)
        let ready = dir + "/ready"
        let script = "import fcntl,time,os\nf=open('\(file)','r+')\nfcntl.lockf(f,fcntl.LOCK_EX)\nopen('\(ready)','w').write(str(os.getpid()))\ntime.sleep(60)\n"
        var pid: pid_t = 0
        let words: [String] = ["/usr/bin/env", "python3", "-c", script]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        #expect(posix_spawn(&pid, "/usr/bin/env", nil, nil, argv, environ) == 0)
        defer { kill(pid, SIGKILL); var s: Int32 = 0; waitpid(pid, &s, 0) }
        var waited = 0
        while access(ready, F_OK) != 0 && waited < 3000 { usleep(10_000); waited += 10 }
        try #require(access(ready, F_OK) == 0, "python3 did not take the lock")
        let fd = open(file, O_RDWR)
        defer { close(fd) }
        #expect(throws: I2CError.busInUse(path: file, pid: pid)) { try LinuxI2CBus.lock(fd, path: file) }
        let message = I2CError.busInUse(path: "/dev/i2c-1", pid: pid).description
        #expect(message.contains("headtrack is already using /dev/i2c-1 (pid \(pid))"))
        #expect(message.contains("systemctl stop headtrack"))
        // Once the holder is gone the lock is free again (the kernel drops it with the process).
        kill(pid, SIGKILL)
        var s: Int32 = 0
        waitpid(pid, &s, 0)
        #expect(throws: Never.self) { try LinuxI2CBus.lock(fd, path: file) }
    }
}
