import Fusion
import SensorCalibration
import Geometry

/// What is wrong with a calibration file: `FILE:LINE: message` (the line when it is about one value).
public struct CalibrationError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var line: Int?
    public var message: String
    public init(path: String, line: Int? = nil, message: String) { self.path = path; self.line = line; self.message = message }
    public var description: String { line.map { "\(path):\($0): \(message)" } ?? "\(path): \(message)" }
}

/// The calibration file: versioned JSON, written atomically (temporary file, fsync, rename) with the file it
/// replaces kept as PATH.previous, and read strictly: a truncated or corrupt file is an error that says so,
/// never a half-applied calibration.
public struct CalibrationStore: Sendable {
    public var path: String
    public init(path: String) { self.path = path }

    public var previousPath: String { path + ".previous" }

    /// Where the background calibration keeps what it learned, beside the guided calibration file:
    /// `calibration.json` → `calibration.learned.json` (another name gets `.learned` appended), so a guided
    /// result is never overwritten by a learned one and each keeps its own `.previous`.
    public static func learnedPath(beside calibrationFile: String) -> String {
        calibrationFile.hasSuffix(".json") ? String(calibrationFile.dropLast(5)) + ".learned.json" : calibrationFile + ".learned"
    }

    /// Which calibration a run starts from: the learned one when it is newer than the guided one (it was
    /// learned after that calibration was made, starting from it, or there is none), else the guided one.
    /// A file without a time is older than any that has one.
    public static func newer(guided: Calibration?, learned: Calibration?) -> Calibration? {
        guard let l = learned else { return guided }
        guard let g = guided else { return l }
        return (l.createdUnixTime ?? -1) > (g.createdUnixTime ?? -1) ? l : g
    }

    // MARK: Writing

    public func save(_ calibration: Calibration) throws(FileError) {
        try FileIO.writeAtomically(path, Array(CalibrationStore.encode(calibration).utf8), keepPrevious: true)
    }

    public static func encode(_ c: Calibration) -> String {
        func v(_ x: Vector3) -> JSONOutput { .array(.inline, [number(x.x), number(x.y), number(x.z)]) }
        let s = c.magnetometer.softIron
        return JSONOutput.object { o in
            o.add("version", .integer(c.version))
            if let t = c.createdUnixTime { o.add("createdUnixTime", number(t)) }
            o.add("gyroBias", v(c.gyroBias))
            o.add("magnetometer", .object { m in
                m.add("hardIron", v(c.magnetometer.hardIron))
                m.add("softIron", .array(.inline, [v(s.row0), v(s.row1), v(s.row2)]))
            })
            if let f = c.magnetometerFit {
                o.add("magnetometerFit", .object(.inline) { m in
                    m.add("fieldStrength", number(f.fieldStrength))
                    m.add("relativeResidual", number(f.relativeResidual))
                    m.add("coverage", number(f.coverage))
                    m.add("samples", .integer(f.samples))
                })
            }
        }.text() + "\n"
    }

    /// Shortest text that reads back as the same Double; a value that is no number is written 0, as the file
    /// has always had it (the reader takes no null in its place).
    private static func number(_ x: Double) -> JSONOutput { .number(roundTrip: x.isFinite ? x : 0) }

    // MARK: Reading

    public func load() throws(CalibrationError) -> Calibration {
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path, limit: FileIO.smallFileLimit) } catch { throw CalibrationError(path: path, message: error.message) }
        return try CalibrationStore.decode(bytes: bytes, path: path)
    }

    /// What to use after (re)loading: the file if it is good; otherwise the calibration already in use (or the
    /// previous file, or none), with a message saying what was wrong and what is used instead.
    public func loadKeepingCurrent(_ current: Calibration?) -> (calibration: Calibration, problem: String?) {
        do {
            return (try load(), nil)
        } catch {
            if let c = current {
                return (c, "\(error); keeping the calibration already in use. Run 'headtrack calibrate' to make a new one.")
            }
            if FileIO.exists(previousPath), let p = try? CalibrationStore(path: previousPath).load() {
                return (p, "\(error); using the previous calibration \(previousPath). Run 'headtrack calibrate' to make a new one.")
            }
            return (.none, "\(error); running uncalibrated. Run 'headtrack calibrate' to make one.")
        }
    }

    // Plausibility bounds for the stored numbers. A fit never produces values near them; a file outside
    // them is corrupt or hand-edited, and is rejected like a truncated one (the daemon then runs without it).
    /// rad/s: a MEMS gyro's zero-rate offset is a few °/s; 1 rad/s is 57 °/s.
    static let maxGyroBias = 1.0
    /// µT: hard-iron offsets of a headset are tens of µT; the magnetometers saturate near 4900 µT.
    static let maxHardIron = 5000.0
    /// Soft-iron entries of a correction with determinant 0.1...10 stay well inside ±10.
    static let maxSoftIron = 10.0
    /// Samples a fit used: a 3-minute session at 100 Hz is 18 000; a billion is never real.
    static let maxSamples = 1_000_000_000

    public static func decode(_ text: String, path: String = "calibration") throws(CalibrationError) -> Calibration {
        try decode(bytes: Array(text.utf8), path: path)
    }

    public static func decode(bytes: [UInt8], path: String = "calibration") throws(CalibrationError) -> Calibration {
        var document = JSONDocument(root: .null, lines: [:], numberTexts: [:])
        /// The value at `key` (a JSON path), for the line an error names.
        func fail(_ m: String, at key: String? = nil) -> CalibrationError {
            CalibrationError(path: path, line: key.flatMap { document.line($0) },
                             message: m + " (corrupt or truncated calibration file: run 'headtrack calibrate' again)")
        }
        do { document = try JSONParser.parseDocument(bytes: bytes) } catch {
            throw CalibrationError(path: path, line: error.line, message: "not valid JSON at column \(error.column): \(error.message)"
                                   + " (corrupt or truncated calibration file: run 'headtrack calibrate' again)")
        }
        let root = document.root
        guard case .object = root else { throw fail("expected a JSON object") }
        guard case let .number(version)? = root["version"] else { throw fail("missing \"version\"") }
        guard root["version"]?.integer(in: 0...1_000_000) != nil else { throw fail("\"version\" must be a whole number", at: "version") }
        guard version == Double(Calibration.currentVersion) else {
            throw CalibrationError(path: path, line: document.line("version"), message: "calibration format version \(version) is not supported (this headtrack reads version \(Calibration.currentVersion)): run 'headtrack calibrate' again")
        }
        /// The number as the file wrote it (1e400 or a million digits, not "inf").
        func written(_ key: String, _ x: Double) -> String { document.numberText(key, else: x) }
        func vector(_ value: JSONValue?, _ name: String, limit: Double) throws(CalibrationError) -> Vector3 {
            guard case let .array(items)? = value, items.count == 3 else { throw fail("\"\(name)\" must be an array of 3 numbers", at: name) }
            var xs: [Double] = []
            for (i, item) in items.enumerated() {
                let key = "\(name)[\(i)]"
                guard case let .number(x) = item else { throw fail("\"\(name)\" must be an array of 3 numbers", at: key) }
                guard x.isFinite, abs(x) <= limit else { throw fail("\"\(name)\" holds \(written(key, x)), outside -\(limit)...\(limit)", at: key) }
                xs.append(x)
            }
            return Vector3(xs[0], xs[1], xs[2])
        }
        func number(_ value: JSONValue?, _ name: String, _ range: ClosedRange<Double>) throws(CalibrationError) -> Double {
            guard case let .number(x)? = value else { throw fail("\"\(name)\" must be a number", at: name) }
            guard range.contains(x) else { throw fail("\"\(name)\" is \(written(name, x)), outside \(range.lowerBound)...\(range.upperBound)", at: name) }
            return x
        }
        let gyroBias = try vector(root["gyroBias"], "gyroBias", limit: maxGyroBias)
        guard let mag = root["magnetometer"], case .object = mag else { throw fail("missing \"magnetometer\"", at: "magnetometer") }
        let hardIron = try vector(mag["hardIron"], "magnetometer.hardIron", limit: maxHardIron)
        guard case let .array(rows)? = mag["softIron"], rows.count == 3 else {
            throw fail("\"magnetometer.softIron\" must be 3 rows of 3 numbers", at: "magnetometer.softIron")
        }
        let softIron = Matrix3(rows: try vector(rows[0], "magnetometer.softIron[0]", limit: maxSoftIron),
                               try vector(rows[1], "magnetometer.softIron[1]", limit: maxSoftIron),
                               try vector(rows[2], "magnetometer.softIron[2]", limit: maxSoftIron))
        // A soft-iron matrix that folds space (det ≤ 0) or squeezes it hugely cannot come from a fit.
        let det = softIron.determinant
        guard det > 0.1 && det < 10 else { throw fail("\"magnetometer.softIron\" is not a plausible correction (determinant \(det))", at: "magnetometer.softIron") }
        var calibration = Calibration(gyroBias: gyroBias, magnetometer: MagnetometerCorrection(hardIron: hardIron, softIron: softIron))
        if let t = root["createdUnixTime"] {
            // 0 ... year 2286: a clock that is off by centuries is a corrupt file.
            calibration.createdUnixTime = try number(t, "createdUnixTime", 0...1e10)
        }
        if let f = root["magnetometerFit"] {
            guard case .object = f else { throw fail("\"magnetometerFit\" must be an object", at: "magnetometerFit") }
            let strength = try number(f["fieldStrength"], "magnetometerFit.fieldStrength", 0...maxHardIron)
            let residual = try number(f["relativeResidual"], "magnetometerFit.relativeResidual", 0...1000)
            let coverage = try number(f["coverage"], "magnetometerFit.coverage", 0...1)
            guard let samplesValue = f["samples"] else { throw fail("\"magnetometerFit.samples\" is missing", at: "magnetometerFit") }
            // A whole number in range before it becomes an Int: 1e19 used to trap here and crash-loop the daemon.
            guard let samples = samplesValue.integer(in: 0...maxSamples) else {
                throw fail("\"magnetometerFit.samples\" must be a whole number 0...\(maxSamples)", at: "magnetometerFit.samples")
            }
            calibration.magnetometerFit = .init(fieldStrength: strength, relativeResidual: residual, coverage: coverage,
                                                samples: samples)
        }
        return calibration
    }
}
