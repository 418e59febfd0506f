import Testing
@testable import Formats

/// `FileIO.read`'s limit, as the config and calibration readers meet it.
@Suite struct FileIOTests {
    /// /dev/zero as a config or calibration file: refused after 16 MiB instead of reading until memory runs out.
    @Test func endlessFilesAreRefusedAtTheLimit() {
        #expect(throws: ConfigError.self) { try Config.load(path: "/dev/zero") }
        #expect(throws: CalibrationError.self) { try CalibrationStore(path: "/dev/zero").load() }
        #expect(throws: FileError.self) { try FileIO.read("/dev/zero", limit: 1 << 20) }
    }
}
