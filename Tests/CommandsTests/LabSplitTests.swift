import Foundation
import Formats
import Testing
@testable import Commands
import LabCommands

/// The daemon and the lab are two executables: `headtrack` lists bench and eval but does not link them; run
/// as the real binary it hands them to `headtrack-lab` beside it, so the README's `headtrack bench` works.
@Suite struct LabSplitTests {
    /// Runs a built executable of this package (beside the test bundle) and returns (status, stdout).
    func runBuilt(_ name: String, _ args: [String]) throws -> (Int32, String) {
        let path = try #require(SiblingExecutable.path(name))
        #expect(SiblingExecutable.isExecutable(path), "\(path) is missing: `swift build` builds both products")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func labCommandsAreNotLinkedIntoTheDaemon() {
        #expect(!HeadtrackCommand.commands.contains { $0.name == "bench" || $0.name == "eval" })
        var args = ["bench", "--json"]
        #expect(HeadtrackCommand.run(&args) == 2)  // in-process: refused, never exec'd
        for c in LabCommand.commands {
            var a = [c.name, "--help"]
            #expect(LabCommand.run(&a) == 0)
            #expect(HeadtrackCommand.helpText.contains("  \(c.name) "), "headtrack --help should list \(c.name)")
        }
    }

    @Test func theDaemonBinaryForwardsToTheLab() throws {
        let (status, text) = try runBuilt("headtrack", ["eval", "smoothing", "--help"])
        #expect(status == 0)
        #expect(text.hasPrefix("usage: headtrack eval smoothing"))
        let (badStatus, _) = try runBuilt("headtrack", ["eval", "no-such-topic"])
        #expect(badStatus == 2)  // the lab's own exit status comes back through exec
        let (labStatus, labHelp) = try runBuilt("headtrack-lab", ["--help"])
        #expect(labStatus == 0 && labHelp.contains("bench") && !labHelp.contains("calibrate"))
    }
}
