import Tracking

/// One labelled gesture bout of a recording: a run of nods or shakes between `start` and `end` (s).
public struct GestureBout: Sendable, Equatable {
    public var label: String
    public var start: Double
    public var end: Double
    public init(label: String, start: Double, end: Double) {
        self.label = label; self.start = start; self.end = end
    }
}

public struct GestureTruthError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
}

/// The labelled truth of a recording, from `NAME.truth.json` beside `NAME.csv` (see shared data/README.md):
/// `{"events": [{"label": "nod", "t_start": 0.3, "t_end": 1.3, ...}, ...]}`; other keys are ignored.
public struct GestureTruth: Sendable, Equatable {
    public var bouts: [GestureBout]
    public init(bouts: [GestureBout]) { self.bouts = bouts }

    /// Where the truth of a trace lives: `NAME.csv` → `NAME.truth.json`.
    public static func path(forTrace tracePath: String) -> String {
        (tracePath.hasSuffix(".csv") ? String(tracePath.dropLast(4)) : tracePath) + ".truth.json"
    }

    public static func read(path: String) throws(GestureTruthError) -> GestureTruth {
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path, limit: FileIO.smallFileLimit) } catch {
            throw GestureTruthError(path: path, message: "\(error.message); every trace needs its labelled bouts "
                + "beside it as NAME.truth.json (see data/README.md), {\"events\": []} for a recording without gestures")
        }
        return try parse(bytes: bytes, path: path)
    }

    public static func parse(_ text: String, path: String = "truth") throws(GestureTruthError) -> GestureTruth {
        try parse(bytes: Array(text.utf8), path: path)
    }

    public static func parse(bytes: [UInt8], path: String = "truth") throws(GestureTruthError) -> GestureTruth {
        let root: JSONValue
        do { root = try JSONParser.parse(bytes: bytes) } catch { throw GestureTruthError(path: path, message: "not valid JSON: \(error)") }
        guard case let .array(events)? = root["events"] else {
            throw GestureTruthError(path: path, message: "needs an \"events\" list of {label, t_start, t_end} bouts")
        }
        var bouts: [GestureBout] = []
        for (i, event) in events.enumerated() {
            guard case let .string(label)? = event["label"], case let .number(start)? = event["t_start"],
                  case let .number(end)? = event["t_end"] else {
                throw GestureTruthError(path: path, message: "events[\(i)] needs \"label\" (string), \"t_start\" and \"t_end\" (seconds)")
            }
            // Trace times are checked against the same bound (TraceFile.maxTime), so a bout can always be compared.
            guard start.isFinite, end.isFinite, abs(start) <= TraceFile.maxTime, abs(end) <= TraceFile.maxTime else {
                throw GestureTruthError(path: path, message: "events[\(i)] times must be between -\(TraceFile.maxTime) and \(TraceFile.maxTime) s")
            }
            guard end >= start else {
                throw GestureTruthError(path: path, message: "events[\(i)] ends (\(end) s) before it starts (\(start) s)")
            }
            bouts.append(GestureBout(label: label, start: start, end: end))
        }
        return GestureTruth(bouts: bouts.sorted { $0.start < $1.start })
    }
}
