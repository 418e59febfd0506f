import Fusion
import Geometry

public struct CalibrationError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String
    public init(path: String, message: String) { self.path = path; self.message = message }
    public var description: String { "\(path): \(message)" }
}

/// The calibration file: versioned JSON, written atomically (temporary file, fsync, rename) with the file it
/// replaces kept as PATH.previous, and read strictly: a truncated or corrupt file is an error that says so,
/// never a half-applied calibration.
public struct CalibrationStore: Sendable {
    public var path: String
    public init(path: String) { self.path = path }

    public var previousPath: String { path + ".previous" }

    // MARK: Writing

    public func save(_ calibration: Calibration) throws(FileError) {
        try FileIO.writeAtomically(path, Array(CalibrationStore.encode(calibration).utf8), keepPrevious: true)
    }

    public static func encode(_ c: Calibration) -> String {
        func v(_ x: Vector3) -> String { "[\(number(x.x)), \(number(x.y)), \(number(x.z))]" }
        let s = c.magnetometer.softIron
        var text = "{\n"
        text += "  \"version\": \(c.version),\n"
        if let t = c.createdUnixTime { text += "  \"createdUnixTime\": \(number(t)),\n" }
        text += "  \"gyroBias\": \(v(c.gyroBias)),\n"
        text += "  \"magnetometer\": {\n"
        text += "    \"hardIron\": \(v(c.magnetometer.hardIron)),\n"
        text += "    \"softIron\": [\(v(s.row0)), \(v(s.row1)), \(v(s.row2))]\n"
        text += "  }"
        if let f = c.magnetometerFit {
            text += ",\n  \"magnetometerFit\": {\"fieldStrength\": \(number(f.fieldStrength)), "
            text += "\"relativeResidual\": \(number(f.relativeResidual)), \"coverage\": \(number(f.coverage)), "
            text += "\"samples\": \(f.samples)}"
        }
        return text + "\n}\n"
    }

    /// Shortest text that reads back as the same Double.
    private static func number(_ x: Double) -> String { x.isFinite ? "\(x)" : "0" }

    // MARK: Reading

    public func load() throws(CalibrationError) -> Calibration {
        let text: String
        do { text = try FileIO.readText(path) } catch { throw CalibrationError(path: path, message: error.message) }
        return try CalibrationStore.decode(text, path: path)
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

    public static func decode(_ text: String, path: String = "calibration") throws(CalibrationError) -> Calibration {
        func fail(_ m: String) -> CalibrationError {
            CalibrationError(path: path, message: m + " (corrupt or truncated calibration file: run 'headtrack calibrate' again)")
        }
        let root: JSONValue
        do { root = try JSONParser.parse(text) } catch { throw fail("not valid JSON at \(error)") }
        guard case .object = root else { throw fail("expected a JSON object") }
        guard case let .number(version)? = root["version"] else { throw fail("missing \"version\"") }
        guard version == Double(Calibration.currentVersion) else {
            throw CalibrationError(path: path, message: "calibration format version \(version) is not supported (this headtrack reads version \(Calibration.currentVersion)): run 'headtrack calibrate' again")
        }
        func vector(_ value: JSONValue?, _ name: String) throws(CalibrationError) -> Vector3 {
            guard case let .array(items)? = value, items.count == 3 else { throw fail("\"\(name)\" must be an array of 3 numbers") }
            var xs: [Double] = []
            for item in items {
                guard case let .number(x) = item, x.isFinite else { throw fail("\"\(name)\" must be an array of 3 numbers") }
                xs.append(x)
            }
            return Vector3(xs[0], xs[1], xs[2])
        }
        let gyroBias = try vector(root["gyroBias"], "gyroBias")
        guard let mag = root["magnetometer"], case .object = mag else { throw fail("missing \"magnetometer\"") }
        let hardIron = try vector(mag["hardIron"], "magnetometer.hardIron")
        guard case let .array(rows)? = mag["softIron"], rows.count == 3 else {
            throw fail("\"magnetometer.softIron\" must be 3 rows of 3 numbers")
        }
        let softIron = Matrix3(rows: try vector(rows[0], "magnetometer.softIron"), try vector(rows[1], "magnetometer.softIron"),
                               try vector(rows[2], "magnetometer.softIron"))
        // A soft-iron matrix that folds space (det ≤ 0) or squeezes it hugely cannot come from a fit.
        let det = softIron.determinant
        guard det > 0.1 && det < 10 else { throw fail("\"magnetometer.softIron\" is not a plausible correction (determinant \(det))") }
        var calibration = Calibration(gyroBias: gyroBias, magnetometer: MagnetometerCorrection(hardIron: hardIron, softIron: softIron))
        if case let .number(t)? = root["createdUnixTime"] { calibration.createdUnixTime = t }
        if let f = root["magnetometerFit"], case let .number(strength)? = f["fieldStrength"],
           case let .number(residual)? = f["relativeResidual"], case let .number(coverage)? = f["coverage"],
           case let .number(samples)? = f["samples"] {
            calibration.magnetometerFit = .init(fieldStrength: strength, relativeResidual: residual, coverage: coverage,
                                                samples: Int(samples))
        }
        return calibration
    }
}
