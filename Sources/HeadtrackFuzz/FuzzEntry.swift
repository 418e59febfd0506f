// libFuzzer entry point for the parsers, replay and the event stream's input. Built only by scripts/fuzz.sh
// (`swift build --sanitize=fuzzer -Xswiftc -DFUZZING`); a plain build gets a stub main that says so, so
// `swift build` and `swift test` need no fuzzer runtime.
//
// One binary, several targets: HEADTRACK_FUZZ_TARGET picks which input format the bytes are
// (json, config, calibration, truth, trace, replay, mount, mountfile, stream, request, viewrequest, number, lines,
// registers). Each target only asserts what must hold for
// every input: no trap, no hang (libFuzzer's -timeout), no runaway memory (-rss_limit_mb), and the
// properties written below (a calibration that decodes re-encodes to itself).
import LibC
import Plots
import Fusion
import SensorCalibration
import Tracking
import Formats
import Geometry
import EventStream
import BrowserView

enum FuzzTarget: String, CaseIterable, Sendable {
    case json, config, calibration, truth, trace, replay, mount, mountfile, stream, request, viewrequest, number, lines, registers

    static let current: FuzzTarget = {
        guard let name = getenv("HEADTRACK_FUZZ_TARGET").map({ String(cString: $0) }) else {
            fatalError("set HEADTRACK_FUZZ_TARGET to one of \(FuzzTarget.allCases.map(\.rawValue))")
        }
        guard let t = FuzzTarget(rawValue: name) else {
            fatalError("HEADTRACK_FUZZ_TARGET=\(name) is not one of \(FuzzTarget.allCases.map(\.rawValue))")
        }
        return t
    }()

    func run(_ bytes: [UInt8]) {
        switch self {
        case .json:
            _ = try? JSONParser.parse(bytes: bytes)
        case .config:
            _ = try? Config.parse(bytes: bytes)
        case .calibration:
            // A calibration that decodes must survive a round trip unchanged: what `save` writes, `load` reads.
            if let c = try? CalibrationStore.decode(bytes: bytes) {
                let again: Calibration
                do { again = try CalibrationStore.decode(CalibrationStore.encode(c)) } catch {
                    fatalError("a decoded calibration does not decode after encoding: \(error)")
                }
                guard again == c else { fatalError("calibration round trip changed it: \(c) vs \(again)") }
            }
        case .truth:
            _ = try? GestureTruth.parse(bytes: bytes)
        case .trace:
            // The frame line's stated mount, when there is one, must be a valid mount (it passed validation).
            guard let trace = try? TraceFile.parse(bytes, name: "fuzz"), let m = trace.wornMount else { return }
            guard (try? Mount(parsing: m.argument)) == m else { fatalError("a stated mount does not round-trip: \(m)") }
        case .replay:
            guard let trace = try? TraceFile.parse(bytes, name: "fuzz") else { return }
            var plot = PlotData(title: "fuzz")
            Replay.run(trace, settings: Pipeline.Settings()) { event, pipeline in
                guard case let .display(t, leds) = event else { return }
                let e = EulerAngles(pipeline.attitude)
                plot.append(t: t, rawHeading: pipeline.heading.isValid ? pipeline.heading.degrees : .nan,
                            smoothedHeading: pipeline.displayed.hasValue ? pipeline.displayed.degrees : .nan,
                            roll: e.roll * 57.3, pitch: e.pitch * 57.3,
                            nodRate: pipeline.headGyro.y * 57.3, shakeRate: pipeline.headGyro.z * 57.3, ledMask: leds)
            }
            _ = SVGPlot.render(plot)
        case .mount:
            _ = try? Mount(parsing: String(decoding: bytes, as: UTF8.self))
        case .stream:
            StreamInputFuzz.run(bytes)
        case .viewrequest:
            ViewRequestFuzz.run(bytes)
        case .lines:
            LinesFuzz.run(bytes)
        case .registers:
            RegistersFuzz.run(bytes)
        case .mountfile:
            // A mount file that decodes is written back as one that decodes to the same mount (to the four
            // decimals a learned mount is written with), and from then on unchanged.
            guard let first = try? MountStore.decode(bytes: bytes) else { return }
            guard let second = try? MountStore.decode(bytes: Array(MountStore.encode(first).utf8)),
                  let third = try? MountStore.decode(bytes: Array(MountStore.encode(second).utf8)) else {
                fatalError("a decoded mount file does not decode after encoding: \(first)")
            }
            guard second.mount.angle(to: first.mount) < 1e-3, third == second else {
                fatalError("mount file round trip changed it: \(first) → \(second) → \(third)")
            }
        case .number:
            // A command-line number: plain decimal only, finite, and what Swift's own reading gives.
            let text = String(decoding: bytes, as: UTF8.self)
            if let v = CommandLineNumber.parse(text) {
                guard v.isFinite, Double(text) == v,
                      text.utf8.allSatisfy({ "0123456789+-.eE".utf8.contains($0) }) else { fatalError("'\(text)' read as \(v)") }
            }
        case .request:
            // One request line as the server reads it: an ask it takes has a valid id and timeout, a subscribe a
            // rate of 0 or more, and a line is exactly one of ask, subscribe, blank or refused with a message.
            let r = RequestLine.read(bytes)
            if r.isSubscribe {
                guard r.askId == nil, r.refusal == nil, !r.isBlank, r.stateHz != nil || r.calibration != nil,
                      (r.stateHz ?? 0) >= 0, (r.stateHz ?? 0).isFinite else {
                    fatalError("a subscribe read as \(r)")
                }
            } else if let id = r.askId {
                guard let t = r.timeout, t >= 0.5, t <= 60 else { fatalError("an ask with timeout \(String(describing: r.timeout))") }
                let u = Array(id.utf8)
                guard (1...64).contains(u.count), u.allSatisfy({ $0 >= 0x20 && $0 < 0x7f && $0 != 0x22 && $0 != 0x5c }) else {
                    fatalError("an ask with the id \(u)")
                }
                guard r.refusal == nil, !r.isBlank else { fatalError("an ask that is also refused or blank") }
            } else if !r.isBlank {
                guard let m = r.refusal, !m.isEmpty else { fatalError("a line neither taken, blank nor refused") }
            }
        }
    }
}

extension FuzzTarget {
    /// Whether the parser of this target accepts the bytes (for the corpus test: regressions must not).
    func accepts(_ bytes: [UInt8]) -> Bool {
        switch self {
        case .json: return (try? JSONParser.parse(bytes: bytes)) != nil
        case .config: return (try? Config.parse(bytes: bytes)) != nil
        case .calibration: return (try? CalibrationStore.decode(bytes: bytes)) != nil
        case .truth: return (try? GestureTruth.parse(bytes: bytes)) != nil
        case .trace, .replay: return (try? TraceFile.parse(bytes, name: "fuzz")) != nil
        case .mount: return (try? Mount(parsing: String(decoding: bytes, as: UTF8.self))) != nil
        case .viewrequest:
            if case .complete = ViewRequestFuzz.outcome(Array(bytes.dropFirst()), split: nil) { return true }
            return false
        case .number: return CommandLineNumber.parse(String(decoding: bytes, as: UTF8.self)) != nil
        case .stream: return true  // nothing a client sends closes its connection: a bad request only gets an error
        case .lines: return true   // every byte stream splits into lines; none is refused
        case .registers: return true   // any bytes are a chip's answer; what is refused is said in the detection
        case .mountfile: return (try? MountStore.decode(bytes: bytes)) != nil
        case .request:
            let r = RequestLine.read(bytes)
            return r.askId != nil || r.isSubscribe
        }
    }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func headtrackFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTarget.current.run(bytes)
    return 0
}
#else
@main struct FuzzStub {
    static func main() {
        print("headtrack-fuzz: built without the fuzzer; run scripts/fuzz.sh")
    }
}
#endif
