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
}
