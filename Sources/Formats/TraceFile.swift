import Geometry
import Tracking

public struct TraceError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String
    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}

/// Reader and writer for the `imu-trace v1` CSV format.
public enum TraceFile {
    public static let requiredColumns = ["t", "ax", "ay", "az", "gx", "gy", "gz"]

    // Bounds every cell is checked against before it is used. Each is far beyond any real sensor, so only a
    // corrupt or hostile file meets them, and each keeps the arithmetic downstream finite and terminating.
    /// Seconds: a Unix timestamp (1.8e9 in 2027) fits; at 1e10 a double still resolves 2 µs, so display
    /// ticks of 1/240 s keep advancing (at 1e15 adding 1/60 s no longer changed t and replay spun forever).
    public static let maxTime = 1e10
    /// m/s²: 100 g, six times the largest full-scale range of the supported chips (±16 g).
    public static let maxAccel = 1000.0
    /// rad/s: 5700 °/s, nearly three times the largest gyro range (±2000 °/s).
    public static let maxGyro = 100.0
    /// µT: twice the AK8963/AK09916 range (±4912 µT).
    public static let maxMag = 10_000.0
    /// Truth quaternion components are within ±1 when normalised; 2 leaves room for sloppy writers.
    public static let maxQuaternion = 2.0
    /// Window ids are small counters; Int32 is plenty and converts without a trap.
    public static let maxWindow = Int(Int32.max)
    /// Sample rates in metadata above this are ignored (the timestamps decide).
    public static var maxRateHz: Double { Trace.maxRateHz }

    /// Parses a cell that must be a plain decimal number. Only digits, sign, point and exponent are allowed:
    /// `Double(_:)` reads "0.5\0JUNK" as 0.5 (it stops at the NUL) and accepts hex and "nan".
    static func decimal(_ cell: Substring) -> Double? {
        guard cell.utf8.count <= 64 else { return nil }
        for b in cell.utf8 {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "e"), UInt8(ascii: "E"): continue
            default: return nil
            }
        }
        guard let v = Double(String(cell)), v.isFinite else { return nil }
        return v
    }

    /// Reads `path`; messages call it `name` (standard input is read as /dev/stdin but is not called that).
    public static func read(path: String, name: String? = nil) throws(TraceError) -> Trace {
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path) } catch { throw TraceError(file: name ?? path, line: 0, message: error.message) }
        return try parse(bytes, name: name ?? path)
    }

    public static func parse(_ text: String, name: String = "trace") throws(TraceError) -> Trace {
        try parse(Array(text.utf8), name: name)
    }

    public static func parse(_ bytes: [UInt8], name: String) throws(TraceError) -> Trace {
        var trace = Trace()
        var columns: [String: Int] = [:]
        var lineNumber = 0
        var start = 0
        var sawFormat = false
        let count = bytes.count
        trace.records.reserveCapacity(count / 60)
        var cells: [Substring] = []
        while start < count {
            var end = start
            while end < count && bytes[end] != 0x0A { end += 1 }
            lineNumber += 1
            var lineEnd = end
            if lineEnd > start && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let line = String(decoding: bytes[start..<lineEnd], as: UTF8.self)
            start = end + 1
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                let body = line.dropFirst().drop { $0 == " " }
                if let colon = body.firstIndex(of: ":") {
                    let key = String(body[..<colon])
                    let value = String(body[body.index(after: colon)...].drop { $0 == " " })
                    trace.metadata[key] = value
                    if key == "format" {
                        sawFormat = true
                        if !value.hasPrefix("imu-trace v1") {
                            throw TraceError(file: name, line: lineNumber, message: "unsupported format \(Shown.quoted(value)), expected 'imu-trace v1'")
                        }
                    }
                }
                continue
            }
            if columns.isEmpty {
                let names = line.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmed }
                for (i, n) in names.enumerated() {
                    if !n.isEmpty, columns[String(n)] != nil {
                        throw TraceError(file: name, line: lineNumber, message: "column \(Shown.quoted(String(n))) appears twice in the header; name each column once")
                    }
                    columns[String(n)] = i
                }
                for c in requiredColumns where columns[c] == nil {
                    throw TraceError(file: name, line: lineNumber,
                                     message: "header lacks column '\(c)'; expected t,ax,ay,az,gx,gy,gz[,mx,my,mz][,qw,qx,qy,qz,moving][,window]")
                }
                continue
            }
            cells.removeAll(keepingCapacity: true)
            cells.append(contentsOf: line.split(separator: ",", omittingEmptySubsequences: false))
            func number(_ column: String, required: Bool, limit: Double) throws(TraceError) -> Double? {
                guard let i = columns[column] else { return nil }
                guard i < cells.count else {
                    throw TraceError(file: name, line: lineNumber, message: "row has \(cells.count) cells, the header has \(columns.count)")
                }
                let cell = cells[i].trimmed
                if cell.isEmpty {
                    if required { throw TraceError(file: name, line: lineNumber, message: "empty '\(column)' cell") }
                    return nil
                }
                guard let v = TraceFile.decimal(cell) else {
                    throw TraceError(file: name, line: lineNumber, message: "\(Shown.quoted(String(decoding: cell.utf8, as: UTF8.self))) in column '\(column)' is not a number")
                }
                guard abs(v) <= limit else {
                    throw TraceError(file: name, line: lineNumber, message: "\(v) in column '\(column)' is out of range -\(limit)...\(limit)")
                }
                return v
            }
            func vector(_ a: String, _ b: String, _ c: String, required: Bool, limit: Double) throws(TraceError) -> Vector3? {
                let x = try number(a, required: required, limit: limit), y = try number(b, required: required, limit: limit)
                let z = try number(c, required: required, limit: limit)
                guard let x, let y, let z else { return nil }
                return Vector3(x, y, z)
            }
            let t = try number("t", required: true, limit: TraceFile.maxTime)!
            var record = TraceRecord(t: t, accel: try vector("ax", "ay", "az", required: true, limit: TraceFile.maxAccel)!,
                                     gyro: try vector("gx", "gy", "gz", required: true, limit: TraceFile.maxGyro)!)
            record.mag = try vector("mx", "my", "mz", required: false, limit: TraceFile.maxMag)
            if let w = try number("qw", required: false, limit: TraceFile.maxQuaternion),
               let v = try vector("qx", "qy", "qz", required: false, limit: TraceFile.maxQuaternion) {
                record.truth = Quaternion(w: w, x: v.x, y: v.y, z: v.z)
            }
            if let m = try number("moving", required: false, limit: 1) { record.moving = m != 0 }
            if let w = try number("window", required: false, limit: Double(TraceFile.maxWindow)) {
                guard w == w.rounded() else {
                    throw TraceError(file: name, line: lineNumber, message: "window \(w) is not a whole number")
                }
                record.window = Int(w)
            }
            if let previous = trace.records.last, record.t < previous.t, record.window == previous.window {
                throw TraceError(file: name, line: lineNumber, message: "time goes backwards (\(record.t) after \(previous.t))")
            }
            trace.records.append(record)
        }
        if columns.isEmpty {
            throw TraceError(file: name, line: 0, message: sawFormat ? "no header row" : "empty or not an imu-trace v1 file")
        }
        return trace
    }

    /// The header block and column row for a recording.
    public static func header(metadata: [(String, String)], withMagnetometer: Bool) -> String {
        var s = "# format: imu-trace v1\n"
        for (k, v) in metadata { s += "# \(k): \(v)\n" }
        s += withMagnetometer ? "t,ax,ay,az,gx,gy,gz,mx,my,mz\n" : "t,ax,ay,az,gx,gy,gz\n"
        return s
    }

    /// One data row.
    public static func row(t: Double, accel: Vector3, gyro: Vector3, mag: Vector3?) -> String {
        var s = "\(fixed(t, 6)),\(fixed(accel.x, 5)),\(fixed(accel.y, 5)),\(fixed(accel.z, 5)),"
        s += "\(fixed(gyro.x, 6)),\(fixed(gyro.y, 6)),\(fixed(gyro.z, 6))"
        if let m = mag { s += ",\(fixed(m.x, 3)),\(fixed(m.y, 3)),\(fixed(m.z, 3))" } else { s += ",,," }
        return s + "\n"
    }
}

extension StringProtocol {
    var trimmed: Substring {
        var s = self[...]
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return Substring(s)
    }
}
