import Geometry
import Testing
@testable import Formats

@Suite struct TraceFileTests {
    @Test func parsesMetadataColumnsAndEmptyCells() throws {
        let text = """
            # format: imu-trace v1
            # rate_hz: 100
            t,ax,ay,az,gx,gy,gz,mx,my,mz,qw,qx,qy,qz,moving
            0.00,0,0,9.8,0.1,0,0,,,,1,0,0,0,1
            0.01,0,0,9.8,0.1,0,0,20,0,-40,,,,,0
            """
        let trace = try TraceFile.parse(text)
        #expect(trace.rateHz == 100)
        #expect(trace.records.count == 2)
        #expect(trace.records[0].mag == nil)
        #expect(trace.records[0].truth == Quaternion.identity)
        #expect(trace.records[1].mag == Vector3(20, 0, -40))
        #expect(trace.records[1].truth == nil)
        #expect(trace.records[1].moving == false)
    }

    @Test func malformedLineIsReportedWithItsNumber() {
        let text = "# format: imu-trace v1\nt,ax,ay,az,gx,gy,gz\n0,0,0,9.8,0,0,0\n0.01,0,zero,9.8,0,0,0\n"
        #expect(throws: TraceError(file: "x.csv", line: 4, message: "'zero' in column 'ay' is not a number")) {
            try TraceFile.parse(text, name: "x.csv")
        }
    }

    @Test func missingColumnAndTruncatedRowAreErrors() {
        #expect(throws: TraceError.self) { try TraceFile.parse("t,ax,ay\n0,0,0\n") }
        #expect(throws: TraceError(file: "trace", line: 2, message: "row has 3 cells, the header has 7")) {
            try TraceFile.parse("t,ax,ay,az,gx,gy,gz\n0,1,2\n")
        }
    }

    @Test func unreadableFileSaysSo() {
        #expect(throws: TraceError.self) { try TraceFile.read(path: "/nonexistent/trace.csv") }
    }

    @Test func writtenRowsReadBack() throws {
        var text = TraceFile.header(metadata: [("rate_hz", "200")], withMagnetometer: true)
        text += TraceFile.row(t: 0.005, accel: Vector3(0.1, -0.2, 9.81), gyro: Vector3(0.01, 0, -0.5), mag: Vector3(20, 1, -44))
        text += TraceFile.row(t: 0.010, accel: Vector3(0.1, -0.2, 9.81), gyro: Vector3(0.01, 0, -0.5), mag: nil)
        let trace = try TraceFile.parse(text)
        #expect(trace.records.count == 2)
        #expect(abs(trace.records[0].gyro.z + 0.5) < 1e-9)
        #expect(trace.records[0].mag == Vector3(20, 1, -44))
        #expect(trace.records[1].mag == nil)
    }

    @Test func fixedFormatting() {
        #expect(fixed(1.23456, 3) == "1.235")
        #expect(fixed(-0.0004, 3) == "0.000")
        #expect(fixed(-2.5, 1) == "-2.5")
        #expect(fixed(7, 0) == "7")
    }

    // Once a `window` cell of 1e19 trapped converting to Int.
    @Test func traceWindowOutOfRangeNamesLineAndColumn() throws {
        let text = "# format: imu-trace v1\nt,ax,ay,az,gx,gy,gz,window\n0,0,0,9.81,0,0,0,1\n0.01,0,0,9.81,0,0,0,1e19\n"
        #expect(throws: TraceError.self) { try TraceFile.parse(text, name: "w.csv") }
        do { _ = try TraceFile.parse(text, name: "w.csv") } catch {
            #expect(error.line == 4)
            #expect(error.description.hasPrefix("w.csv:4: "))
            #expect(error.message.contains("'window'"))
        }
        #expect(throws: TraceError.self) { try TraceFile.parse(text.replacingOccurrences("1e19", "2.5"), name: "w.csv") }
        #expect(try TraceFile.parse(text.replacingOccurrences("1e19", "7"), name: "w.csv").records.last?.window == 7)
    }

    // A time of 1e15 s (where adding 1/60 s no longer changes t) is refused at the line.
    @Test func traceTimeOutOfRangeIsRefused() {
        let text = "# format: imu-trace v1\nt,ax,ay,az,gx,gy,gz\n0,0,0,9.81,0,0,0\n1e15,0,0,9.81,0,0,0\n"
        do {
            _ = try TraceFile.parse(text, name: "t.csv")
            Issue.record("t = 1e15 accepted")
        } catch {
            #expect(error.line == 4)
            #expect(error.message.contains("'t'"))
        }
    }

    // A gyro cell of 1e308 is refused before it reaches a plot.
    @Test func sampleValuesBeyondAnySensorAreRefused() {
        for (column, value) in [(4, "1e308"), (1, "2e3"), (7, "1e5")] {
            var cells = ["0", "0", "0", "9.81", "0", "0", "0", "20", "0", "-40"]
            cells[column] = value
            let text = "# format: imu-trace v1\nt,ax,ay,az,gx,gy,gz,mx,my,mz\n" + cells.joined(separator: ",") + "\n"
            #expect(throws: TraceError.self, "\(value) in column \(column) accepted") { try TraceFile.parse(text, name: "v.csv") }
        }
    }

    // Once a header naming `t` twice was read (last column won).
    @Test func headerNamingAColumnTwiceIsRefused() {
        let text = "# format: imu-trace v1\nt,ax,ay,az,gx,gy,gz,t\n0,0,0,9.81,0,0,0,5\n"
        do {
            _ = try TraceFile.parse(text, name: "h.csv")
            Issue.record("duplicate t accepted")
        } catch {
            #expect(error.line == 2)
            #expect(error.message.contains("'t' appears twice"))
        }
    }

    // Once "0.5\0JUNK" in a cell was read as 0.5 (Double(_:) stops at the NUL).
    @Test(arguments: ["0.5\u{0}JUNK", "0x1p3", "0.5 JUNK", "nan", "1_000"])
    func cellWithTrailingJunkIsRefused(cell: String) {
        let text = "# format: imu-trace v1\nt,ax,ay,az,gx,gy,gz\n0,0,0,9.81,\(cell),0,0\n"
        #expect(throws: TraceError.self, "'\(cell)' accepted") { try TraceFile.parse(text, name: "c.csv") }
    }
}
