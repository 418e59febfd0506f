#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Testing
@testable import Formats
import TestSupport

/// The learned mount's file (beside the calibration): where it is, how it is written and read back, and that a
/// bad file is an error that says what to do (which mount `run` then uses: SessionPlanTests).
@Suite struct MountStoreTests {
    @Test func theFileSitsBesideTheCalibrationFile() {
        #expect(MountStore(beside: "/var/lib/headtrack/calibration.json").path == "/var/lib/headtrack/mount.json")
        #expect(MountStore(beside: "calibration.json").path == "./mount.json")
        #expect(MountStore(beside: "/calibration.json").path == "/mount.json")
    }

    @Test func aSavedMountReadsBackAndTheOldOneIsKept() throws {
        let store = MountStore(path: temporaryDirectory("mount") + "/mount.json")
        let measured = try Mount(parsing: "-0.9892,0.0539,0.1364,0.1465,0.3323,0.9317,0.0049,0.9416,-0.3366")
        let first = MountStore.Record(mount: try Mount(parsing: "-x,z,y"), createdUnixTime: 1_795_000_000, measured: measured,
                                      offAxisFormDegrees: 21.4, nods: 45)
        try store.save(first)
        let loaded = try store.load()
        #expect(loaded.mount == first.mount && loaded.nods == 45 && loaded.offAxisFormDegrees == 21.4)
        #expect(loaded.createdUnixTime == 1_795_000_000)
        #expect(try #require(loaded.measured).angle(to: measured) < 1e-6)
        try store.save(MountStore.Record(mount: try Mount(parsing: "y,z,x")))
        #expect(try store.load().mount.description == "y,z,x")
        #expect(try MountStore(path: store.path + ".previous").load().mount.description == "-x,z,y")
    }

    @Test func aCorruptFileIsAnErrorThatSaysWhatToDo() throws {
        let path = temporaryDirectory("mount") + "/mount.json"
        for bad in ["", "{", "[]", #"{"version": 1}"#, #"{"version": 2, "mount": "x,y,z"}"#, #"{"version": 1, "mount": "x,x,z"}"#,
                    #"{"version": 1, "mount": 7}"#, #"{"version": 1, "mount": "x,y,z", "nods": 1.5}"#] {
            writeText(bad, to: path)
            #expect(throws: CalibrationError.self, "\(bad)") { try MountStore(path: path).load() }
        }
        writeText(#"{"version": 1, "mount": "x,x,z"}"#, to: path)
        do { _ = try MountStore(path: path).load() } catch { #expect(error.description.contains("calibrate --mount")) }
    }
}
