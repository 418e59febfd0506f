import Geometry

/// The mount `headtrack calibrate --mount` learned: a small versioned JSON file in the state directory, beside
/// the calibration (`/var/lib/headtrack/mount.json`), written atomically with the file it replaces kept as
/// FILE.previous, and read strictly (a corrupt file is an error that says so, never a half-read mount).
///
///     {"version": 1, "mount": "-x,z,y", "createdUnixTime": 1767225600, "measured": "-0.9892,...",
///      "offAxisFormDeg": 21.4, "nods": 5}
///
/// `mount` is what runs (`--mount` notation); the rest says how it was measured.
public struct MountStore: Sendable {
    public static let currentVersion = 1
    public var path: String
    public init(path: String) { self.path = path }

    /// The mount file that goes with a config: `mount.json` in the directory of its calibration file.
    public init(beside calibrationFile: String) {
        let directory = calibrationFile.lastIndex(of: "/").map { String(calibrationFile[..<$0]) } ?? "."
        path = directory + "/mount.json"
    }

    public struct Record: Sendable, Equatable {
        public var mount: Mount
        public var createdUnixTime: Double?
        /// The head's axes as measured, when they were not an axis form.
        public var measured: Mount?
        public var offAxisFormDegrees: Double?
        public var nods: Int?
        public init(mount: Mount, createdUnixTime: Double? = nil, measured: Mount? = nil, offAxisFormDegrees: Double? = nil,
                    nods: Int? = nil) {
            self.mount = mount; self.createdUnixTime = createdUnixTime; self.measured = measured
            self.offAxisFormDegrees = offAxisFormDegrees; self.nods = nods
        }
    }

    public func save(_ record: Record) throws(FileError) {
        try FileIO.writeAtomically(path, Array(MountStore.encode(record).utf8), keepPrevious: true)
    }

    public static func encode(_ r: Record) -> String {
        JSONOutput.object { o in
            o.add("version", .integer(currentVersion))
            o.add("mount", .string(r.mount.argument))
            if let t = r.createdUnixTime, t.isFinite { o.add("createdUnixTime", .integer(Int64(t.rounded()))) }
            if let m = r.measured { o.add("measured", .string(m.argument)) }
            if let d = r.offAxisFormDegrees, d.isFinite { o.add("offAxisFormDeg", .number(d, digits: 1)) }
            if let n = r.nods { o.add("nods", .integer(n)) }
        }.text() + "\n"
    }

    public func load() throws(CalibrationError) -> Record {
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path, limit: FileIO.smallFileLimit) } catch { throw CalibrationError(path: path, message: error.message) }
        return try MountStore.decode(bytes: bytes, path: path)
    }

    public static func decode(bytes: [UInt8], path: String = "mount") throws(CalibrationError) -> Record {
        func fail(_ m: String) -> CalibrationError {
            CalibrationError(path: path, message: m + " (corrupt or truncated mount file: run 'headtrack calibrate --mount' again)")
        }
        let root: JSONValue
        do { root = try JSONParser.parse(bytes: bytes) } catch { throw fail("not valid JSON at \(error)") }
        guard case .object = root else { throw fail("expected a JSON object") }
        guard let version = root["version"]?.integer(in: 0...1_000_000) else { throw fail("missing or invalid \"version\"") }
        guard version == currentVersion else {
            throw CalibrationError(path: path, message: "mount file version \(version) is not supported (this headtrack reads version \(currentVersion)): run 'headtrack calibrate --mount' again")
        }
        func mount(_ key: String) throws(CalibrationError) -> Mount? {
            guard let v = root[key] else { return nil }
            guard case let .string(text) = v else { throw fail("\"\(key)\" must be a string such as \"-x,z,y\"") }
            do { return try Mount(parsing: text) } catch { throw fail("\"\(key)\": \(error.description)") }
        }
        guard let m = try mount("mount") else { throw fail("missing \"mount\"") }
        var record = Record(mount: m, measured: try mount("measured"))
        if let v = root["createdUnixTime"] {
            guard case let .number(t) = v, (0...1e10).contains(t) else { throw fail("\"createdUnixTime\" must be a number 0...1e10") }
            record.createdUnixTime = t
        }
        if let v = root["offAxisFormDeg"] {
            guard case let .number(d) = v, (0...180).contains(d) else { throw fail("\"offAxisFormDeg\" must be a number 0...180") }
            record.offAxisFormDegrees = d
        }
        if let v = root["nods"] {
            guard let n = v.integer(in: 0...1_000_000) else { throw fail("\"nods\" must be a whole number") }
            record.nods = n
        }
        return record
    }
}
