#if canImport(Glibc)
import Glibc
#endif
import Fusion
import SensorCalibration
import Geometry
import Testing
@testable import Formats
import TestSupport

/// Saves have no window: stopped after any step (as a SIGKILL would stop them), the file holds the old or
/// the new content, whole; the next save cleans up what the stopped one left.
/// `scripts/kill-during-save.sh` does the same with real SIGKILLs at every system call of `calibrate`.
@Suite struct AtomicSaveTests {
    func calibration(hardIronX: Double) -> Calibration {
        Calibration(gyroBias: Vector3(0.01, 0, 0),
                    magnetometer: MagnetometerCorrection(hardIron: Vector3(hardIronX, -20, 30), softIron: .identity),
                    magnetometerFit: .init(fieldStrength: 48, relativeResidual: 0.01, coverage: 0.8, samples: 4000))
    }

    @Test(arguments: AtomicFileWriter.Step.allCases)
    func calibrationSaveStoppedAfterAnyStepLeavesOldOrNewWhole(step: AtomicFileWriter.Step) throws {
        let dir = temporaryDirectory("atomic")
        let store = CalibrationStore(path: dir + "/calibration.json")
        let old = calibration(hardIronX: 10), new = calibration(hardIronX: 99)
        try store.save(old)
        let oldBytes = try FileIO.read(store.path)
        let newBytes = Array(CalibrationStore.encode(new).utf8)

        // Stop the save after `step`: no clean-up runs, exactly what a SIGKILL there leaves.
        try FileIO.writeAtomically(store.path, newBytes, keepPrevious: true, afterStep: { $0 != step })

        // The file is there and is one of the two versions, byte for byte (the old code had a moment with
        // only calibration.json.previous).
        let now = try FileIO.read(store.path)
        #expect(now == oldBytes || now == newBytes, "after \(step): \(now.count) bytes")
        let loaded = try store.load()
        #expect(loaded == old || loaded == new)
        // Once the rename happened, the new content is what is there.
        let renamed = AtomicFileWriter.Step.allCases.firstIndex(of: .renamed)!
        if AtomicFileWriter.Step.allCases.firstIndex(of: step)! >= renamed { #expect(loaded == new) } else { #expect(loaded == old) }

        // The next save completes, keeps the file it replaces as .previous, and removes the stale temporaries.
        let newer = calibration(hardIronX: 7)
        try store.save(newer)
        #expect(try store.load() == newer)
        #expect(try CalibrationStore(path: store.previousPath).load() == loaded)
        #expect(directoryEntries(dir) == ["calibration.json", "calibration.json.previous"], "left: \(directoryEntries(dir))")
    }

    @Test func staleTemporariesOfDeadProcessesAreRemovedButOthersKept() throws {
        let dir = temporaryDirectory("atomic")
        let path = dir + "/plot.svg"
        // PID 2^22+1 is above Linux's pid_max limit, so no process has it; PID 1 is always alive.
        for name in ["plot.svg.tmp-4194305", "plot.svg.previous.tmp-4194305", "plot.svg.tmp-1", "other.tmp-4194305"] {
            try FileIO.writeAtomically(dir + "/" + name, [1, 2, 3])
        }
        try FileIO.writeAtomically(path, Array("<svg/>".utf8))
        #expect(directoryEntries(dir) == ["other.tmp-4194305", "plot.svg", "plot.svg.tmp-1"])
    }

    @Test func aSymlinkIsFollowedNotReplaced() throws {
        let dir = temporaryDirectory("atomic")
        try FileIO.writeAtomically(dir + "/real.json", Array("old".utf8))
        #expect(symlink("real.json", dir + "/link.json") == 0)
        try FileIO.writeAtomically(dir + "/link.json", Array("new".utf8), keepPrevious: true)
        var st = stat()
        #expect(lstat(dir + "/link.json", &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK, "the link became a file")
        #expect(try FileIO.read(dir + "/real.json") == Array("new".utf8))
        #expect(try FileIO.read(dir + "/real.json.previous") == Array("old".utf8))
        // A dangling link: the save creates the file it names.
        #expect(symlink("made.json", dir + "/dangling.json") == 0)
        try FileIO.writeAtomically(dir + "/dangling.json", Array("x".utf8))
        #expect(try FileIO.read(dir + "/made.json") == Array("x".utf8))
        // A loop is an error, not a hang.
        #expect(symlink("b", dir + "/a") == 0 && symlink("a", dir + "/b") == 0)
        #expect(throws: FileError.self) { try FileIO.writeAtomically(dir + "/a", [1]) }
    }

    @Test func aFIFOIsWrittenDirectlyNotReplaced() throws {
        let dir = temporaryDirectory("atomic")
        // A FIFO with a reader: the bytes go through the pipe, and the FIFO stays a FIFO.
        #expect(mkfifo(dir + "/fifo", 0o600) == 0)
        let reader = open(dir + "/fifo", O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        try FileIO.writeAtomically(dir + "/fifo", Array("through the pipe".utf8))
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = read(reader, &buffer, buffer.count)
        close(reader)
        #expect(n == 16 && Array(buffer[0..<16]) == Array("through the pipe".utf8))
        var fifo = stat()
        #expect(lstat(dir + "/fifo", &fifo) == 0 && (fifo.st_mode & S_IFMT) == S_IFIFO)
        unlink(dir + "/fifo")
        #expect(directoryEntries(dir).isEmpty)
    }

    @Test(.enabled(if: canMakeDeviceNodes, "needs CAP_MKNOD (root) to make its own null and full devices"))
    func aDeviceNodeIsWrittenDirectlyAndAFullOneSaysSo() throws {
        let dir = temporaryDirectory("atomic")
        // Our own nodes for the null and full devices (char 1,3 and 1,7; glibc's makedev packs a small major
        // into bits 8-19).
        try #require(mknod(dir + "/null", S_IFCHR | 0o666, 0x103) == 0)
        try #require(mknod(dir + "/full", S_IFCHR | 0o666, 0x107) == 0)
        try FileIO.writeAtomically(dir + "/null", Array("data".utf8))
        // /dev/full: the write fails with ENOSPC and says so, instead of "written" over a replaced node.
        do {
            try FileIO.writeAtomically(dir + "/full", Array("data".utf8))
            Issue.record("writing the full device succeeded")
        } catch {
            #expect(error.message.contains("No space") || error.message.contains("disk full"))
        }
        for name in ["null", "full"] {
            var st = stat()
            #expect(stat(dir + "/" + name, &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR, "\(name) was replaced")
        }
        #expect(directoryEntries(dir) == ["full", "null"])
    }

    @Test func theOldFilesPermissionsAreKept() throws {
        let dir = temporaryDirectory("atomic")
        let path = dir + "/calibration.json"
        try FileIO.writeAtomically(path, [1])
        #expect(chmod(path, 0o600) == 0)
        try FileIO.writeAtomically(path, [2])
        var st = stat()
        #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o600)
    }

    @Test func aWriterThatIsNotClosedLeavesTheOldFile() throws {
        let dir = temporaryDirectory("atomic")
        let path = dir + "/rec.csv"
        try FileIO.writeAtomically(path, Array("precious".utf8))
        do {
            let w = try BufferedFileWriter(path: path)
            try w.write("partial\n")
            try w.flush()
            #expect(try FileIO.read(path) == Array("precious".utf8))
        }
        #expect(try FileIO.read(path) == Array("precious".utf8))
        #expect(directoryEntries(dir) == ["rec.csv"])
        let w = try BufferedFileWriter(path: path)
        try w.write("new\n")
        try w.close()
        #expect(try FileIO.read(path) == Array("new\n".utf8))
    }
}
