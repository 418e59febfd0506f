import Fusion
import SensorCalibration
import Geometry
import Gestures
import Indicators
import Sensors
import Tracking
import Formats

/// What a client learns on connect: which sensors the loop reads and at what rates, and which mount is in use
/// and where it came from.
public struct StreamHello: Sendable, Equatable {
    public var imu: String
    public var magnetometer: String?
    public var rates: LoopRates
    public var stateHz: Double
    public var mount: MountInUse
    /// The north LED's sector: lit within this many degrees of north, with the hysteresis the panel applies.
    public var northLed: (halfWidth: Double, hysteresis: Double) {
        (LedPanel.Settings.default.northHalfWidth, LedPanel.Settings.default.northHysteresis)
    }

    public init(imu: String, magnetometer: String?, rates: LoopRates, stateHz: Double,
                mount: MountInUse = MountInUse(mount: nil, source: .none)) {
        self.imu = imu
        self.magnetometer = magnetometer
        self.rates = rates
        self.stateHz = stateHz
        self.mount = mount
    }

    public init<Bus>(board: SensorBoard<Bus>, rates: LoopRates, stateHz: Double) {
        self.init(imu: board.imu.chipName, magnetometer: board.magnetometer?.kind.displayName, rates: rates,
                  stateHz: stateHz)
    }
}

/// The local event stream (protocol version 1, documented in docs/protocol.md): turns the loop's events into JSON
/// lines for every connected client. Formatting goes into preallocated buffers and the server copies them
/// into preallocated per-client rings, so the loop's per-sample path allocates nothing here.
public final class EventStream {
    public static let protocolVersion = 1

    public struct Settings: Sendable, Equatable {
        public var socketPath = EventStream.defaultSocketPath
        /// State lines per second; 0 = gestures and faults only. At most the display rate (state goes out on
        /// display ticks): 60 Hz by default, the rate the LEDs and the smoothed heading change at.
        public var stateHz = 60.0
        public var server = StreamServer.Settings()
        public init() {}
    }

    /// Under the unit's RuntimeDirectory=headtrack.
    public static let defaultSocketPath = "/run/headtrack/events.sock"

    public let server: StreamServer
    public let stateHz: Double
    private let line = LineBuffer(capacity: 1024)
    private var nextState = -Double.infinity
    private let statePeriod: Double
    private let displayPeriod: Double
    private var faults = FaultEpisode()
    private let calibration = BackgroundCalibrationFeed()
    /// The head's yaw (radians about up, counter-clockwise seen from above: to the left) at the last
    /// `recenter`; nil until a client asks for one, and state lines carry `yaw_deg` from then on.
    private var yawZero: Double? = nil
    /// The pipeline's `bouts.ended` when the last `bout_end` line went out.
    private var boutsEnded = 0
    /// `explain` lines: their own buffer (a judgement of every rule is longer than the other lines), and which
    /// verdicts were told already.
    private let explainLine = LineBuffer(capacity: 2048)
    private var verdictChanges = GestureVerdictChanges()
    /// `explain` lines sent (to at least one subscribed client).
    public private(set) var explainLines = 0
    /// Send the background calibration's `calibration` lines: off while a guided calibration sends its own, and
    /// from the start when the hello names no magnetometer (a trace without one): there is no iron to learn,
    /// and a line a second saying "learning, turn your head about" would contradict the hello.
    public var sendsBackgroundCalibration = true

    public init(settings: Settings, hello: StreamHello) throws(StreamSocketError) {
        guard settings.stateHz >= 0 && settings.stateHz.isFinite else {
            throw StreamSocketError(message: "stream.stateHz must be ≥ 0 (0 = gestures only)")
        }
        stateHz = min(settings.stateHz, hello.rates.displayHz)
        statePeriod = stateHz > 0 ? 1 / stateHz : .infinity
        displayPeriod = 1 / hello.rates.displayHz
        sendsBackgroundCalibration = hello.magnetometer != nil
        var h = hello
        h.stateHz = stateHz
        server = try StreamServer(path: settings.socketPath, settings: settings.server, hello: EventStream.helloLine(h),
                                  stateHz: stateHz, displayHz: hello.rates.displayHz)
    }

    public var path: String { server.path }

    /// Whether a client is waiting for the answer to an ask (the next nod or shake answers it).
    public var questionPending: Bool { server.questionPending }

    /// The pipeline's gesture (what `processIMU` returned), with the bouts as the pipeline holds them after it.
    public func gesture(_ g: ReportedGesture, bouts: GestureBouts) {
        gesture(g.event, t: g.t, start: g.start, count: g.count, bout: g.bout, peakRate: g.peakRate, bouts: bouts)
    }

    /// A detected gesture: always sent (never dropped for a client that keeps reading). `start`, `count`, `bout`
    /// and `peakRate` (rad/s, sent as °/s) as `ReportedGesture` gives them; `bouts`, when given, first sends the
    /// end of a bout this gesture ended (a shake right after nodding), so the lines come in the order things
    /// happened.
    public func gesture(_ e: GestureEvent, t: Double, start: Double? = nil, count: Int? = nil, bout: Int? = nil,
                        peakRate: Double? = nil, bouts: GestureBouts? = nil) {
        if let bouts { publishBoutEnd(bouts) }
        line.reset()
        line.literal("{\"type\":\"gesture\",\"gesture\":")
        line.string(e.streamName)
        line.literal(",\"t\":")
        line.fixed(t, 3)
        line.literal(",\"start\":")
        if let s = start { line.fixed(s, 3) } else { line.literal("null") }
        line.literal(",\"count\":")
        if let c = count { line.integer(Int64(c)) } else { line.literal("null") }
        line.literal(",\"bout\":")
        if let b = bout { line.integer(Int64(b)) } else { line.literal("null") }
        line.literal(",\"peak_dps\":")
        if let p = peakRate { line.fixed(p * Units.degreesPerRadian, 1) } else { line.literal("null") }
        line.literal("}\n")
        server.broadcast(line, kind: .mustArrive, t: t)
        // After the gesture line, so a client that asked sees the gesture before its answer.
        if (e == .nod || e == .shake) && server.questionPending { server.answer(gesture: e.streamName, t: t, bout: bout) }
    }

    /// An `explain` line for the clients subscribed to them when the detector judged a candidate nod or shake
    /// differently from the last one told (called after every IMU sample: a comparison of the detector's
    /// verdict count when it has judged nothing new). Every rule that applied, in `GestureRule` order: its value
    /// and limit in the unit `replay --explain` prints, whether the value must reach the limit (`at_least`) and
    /// whether it passed. Verdicts are followed while nobody subscribes, so a client that subscribes later is
    /// not sent one judged before it asked.
    public func explain(_ detector: GestureDetector) {
        guard let v = verdictChanges.next(detector), server.explainWanted else { return }
        let b = explainLine
        b.reset()
        // In the order `replay --explain` says it: "nod? 2 swings from 16.15 s: taken".
        b.literal("{\"type\":\"explain\",\"gesture\":")
        b.string(v.event.streamName)
        b.literal(",\"swings\":")
        b.integer(Int64(v.swings))
        b.literal(",\"start\":")
        b.fixed(v.start, 3)
        b.literal(",\"t\":")
        b.fixed(v.t, 3)
        b.literal(",\"taken\":")
        b.bool(v.accepted)
        b.literal(",\"refused_by\":[")
        var first = true
        var raw = 0
        // By raw value, not `allCases` (an array): nothing allocates here.
        while let rule = GestureRule(rawValue: raw) {
            raw += 1
            guard v.applies(rule), !v.passed(rule) else { continue }
            if !first { b.literal(",") }
            first = false
            b.string(rule.name)
        }
        b.literal("],\"rules\":[")
        first = true
        raw = 0
        while let rule = GestureRule(rawValue: raw) {
            raw += 1
            guard v.applies(rule) else { continue }
            if !first { b.literal(",") }
            first = false
            let unit = rule.unit
            b.literal("{\"rule\":")
            b.string(rule.name)
            b.literal(",\"value\":")
            b.fixed(v.value(rule) * unit.factor, 3)
            b.literal(",\"limit\":")
            b.fixed(v.limit(rule) * unit.factor, 3)
            b.literal(",\"unit\":")
            b.string(unit.name)
            b.literal(",\"at_least\":")
            b.bool(v.isLowerLimit(rule))
            b.literal(",\"ok\":")
            b.bool(v.passed(rule))
            b.literal("}")
        }
        b.literal("]}\n")
        server.broadcast(b, kind: .explain, t: v.t)
        explainLines += 1
    }

    /// A `bout_end` line for every client when the pipeline's bouts have ended one since the last call (at most
    /// one can end between two calls: a new bout needs `GestureBouts.quietTime` to end).
    func publishBoutEnd(_ bouts: GestureBouts) {
        guard bouts.ended != boutsEnded else { return }
        boutsEnded = bouts.ended
        let b = bouts.lastEnded
        line.reset()
        line.literal("{\"type\":\"bout_end\",\"bout\":")
        line.integer(Int64(b.id))
        line.literal(",\"gesture\":")
        line.string(b.kind.streamName)
        line.literal(",\"t\":")
        line.fixed(b.t, 3)
        line.literal(",\"gestures\":")
        line.integer(Int64(b.gestures))
        line.literal("}\n")
        server.broadcast(line, kind: .mustArrive, t: b.t)
    }

    /// A display tick: serve the socket, end a fault episode that is over, and send a state line when due (the
    /// server passes it on only to the clients whose own subscribed rate has one due).
    public func display(t: Double, leds: UInt64, pipeline: Pipeline) {
        server.poll(t: t)
        if server.takeRecenter() { recenter(t: t, pipeline: pipeline) }
        publishBoutEnd(pipeline.bouts)
        if faults.tick(t: t) {
            line.reset()
            line.literal("{\"type\":\"fault\",\"t\":")
            line.fixed(t, 3)
            line.literal(",\"active\":false}\n")
            server.broadcast(line, kind: .mustArrive, t: t)
        }
        if sendsBackgroundCalibration { calibration.publish(pipeline, t: t, to: server) }
        // A quarter display period of slack, so 60 Hz state on 60 Hz ticks never skips a tick to rounding.
        guard stateHz > 0, t + displayPeriod / 4 >= nextState else { return }
        nextState = nextState.isFinite && nextState + statePeriod > t ? nextState + statePeriod : t + statePeriod
        formatState(t: t, leds: leds, pipeline: pipeline)
        server.broadcast(line, kind: .state, t: t)
    }

    /// A sensor fault: a `fault` line when an episode begins (not for every failing sample).
    public func fault(_ kind: FaultKind, t: Double) {
        guard faults.fault(t: t) else { return }
        line.reset()
        line.literal("{\"type\":\"fault\",\"t\":")
        line.fixed(t, 3)
        line.literal(",\"active\":true,\"kind\":")
        line.string(kind.name)
        line.literal("}\n")
        server.broadcast(line, kind: .mustArrive, t: t)
    }

    /// A client asked to recentre: where the head points now is yaw 0 for every client from this tick on
    /// (the head has one yaw, and a state line is formatted once for all). Every client is told with a
    /// `recentered` line, so an app that did not ask knows its zero moved. The yaw comes from the fused
    /// attitude: tied to north when there is a trusted magnetometer, from the gyro (and its learned bias)
    /// when there is none, so then it drifts slowly (docs/protocol.md gives how much).
    func recenter(t: Double, pipeline: Pipeline) {
        yawZero = EventStream.yaw(pipeline.attitude)
        line.reset()
        line.literal("{\"type\":\"recentered\",\"t\":")
        line.fixed(t, 3)
        line.literal("}\n")
        server.broadcast(line, kind: .mustArrive, t: t)
    }

    /// The yaw of a head → ENU attitude: the angle of the head's forward axis, projected on the horizontal,
    /// from east, counter-clockwise (so turning the head left increases it). The ZYX Euler yaw is exactly that.
    static func yaw(_ q: Quaternion) -> Double { EulerAngles(q).yaw }

    /// `a - zero` in degrees, wrapped to (-180, 180].
    static func relativeYawDegrees(_ a: Double, zero: Double) -> Double {
        var d = (a - zero) * Units.degreesPerRadian
        d = d.truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 }
        if d <= -180 { d += 360 }
        return d
    }

    /// Clean exit: clients closed, socket file removed.
    public func stop() { server.stop() }

    // MARK: Formatting

    func formatState(t: Double, leds: UInt64, pipeline: Pipeline) {
        let q = pipeline.attitude
        let e = EulerAngles(q)
        let d = pipeline.displayed
        line.reset()
        line.literal("{\"type\":\"state\",\"t\":")
        line.fixed(t, 3)
        line.literal(",\"heading_deg\":")
        if d.hasValue { line.fixed(EventStream.headingForDisplay(d.degrees), 2) } else { line.literal("null") }
        line.literal(",\"heading_valid\":")
        line.bool(d.hasValue && d.isLive)
        line.literal(",\"pitch_deg\":")
        line.fixed(e.pitch * Units.degreesPerRadian, 2)
        line.literal(",\"roll_deg\":")
        line.fixed(e.roll * Units.degreesPerRadian, 2)
        if let zero = yawZero {
            line.literal(",\"yaw_deg\":")
            line.fixed(EventStream.relativeYawDegrees(e.yaw, zero: zero), 2)
        }
        line.literal(",\"quat\":[")
        line.fixed(q.w, 5); line.byte(UInt8(ascii: ","))
        line.fixed(q.x, 5); line.byte(UInt8(ascii: ","))
        line.fixed(q.y, 5); line.byte(UInt8(ascii: ","))
        line.fixed(q.z, 5)
        // The head's angular rate (x forward, y left, z up) without the filter's gyro bias: what the
        // gesture detector sees, for the live view's plot.
        let w = (pipeline.headGyro - pipeline.filter.gyroBias) * Units.degreesPerRadian
        line.literal("],\"rates_dps\":[")
        line.fixed(w.x, 1); line.byte(UInt8(ascii: ","))
        line.fixed(w.y, 1); line.byte(UInt8(ascii: ","))
        line.fixed(w.z, 1)
        line.literal("],\"leds\":{")
        for i in 0..<EventStream.ledNames.count {
            if i > 0 { line.byte(UInt8(ascii: ",")) }
            line.string(EventStream.ledNames[i])
            line.byte(UInt8(ascii: ":"))
            line.bool(leds & (1 << UInt64(i)) != 0)
        }
        line.literal("}}\n")
    }

    /// LED names in mask bit order (the config's gpio.leds names).
    static let ledNames: [StaticString] = ["nod", "shake", "north", "up", "down", "left", "right", "status"]

    /// Degrees as sent with two decimals, kept in [0, 360): 359.996 would otherwise print as 360.00.
    static func headingForDisplay(_ degrees: Double) -> Double {
        var r = (degrees * 100).rounded() / 100
        if r >= 360 { r -= 360 }
        if r < 0 { r += 360 }
        return r
    }

    /// The first line every client gets. Made once when the stream starts, not per sample, so it is written by
    /// the project's one JSON writer (which allocates) and kept in a line buffer the server copies from.
    static func helloLine(_ h: StreamHello) -> LineBuffer {
        let text = JSONOutput.object(.compact) { o in
            o.add("type", .string("hello"))
            o.add("version", .integer(protocolVersion))
            o.add("imu", .string(h.imu))
            o.add("magnetometer", .string(h.magnetometer))
            o.add("rates", .object { r in
                r.add("imu_hz", .number(h.rates.imuHz, digits: 1))
                r.add("mag_hz", .number(h.magnetometer == nil ? nil : h.rates.magHz, digits: 1))
                r.add("display_hz", .number(h.rates.displayHz, digits: 1))
                r.add("state_hz", .number(h.stateHz, digits: 1))
            })
            o.add("north_led_deg", .number(h.northLed.halfWidth, digits: 1))
            o.add("north_led_hysteresis_deg", .number(h.northLed.hysteresis, digits: 1))
            o.add("mount", .string(h.mount.mount == nil ? nil : h.mount.text))
            o.add("mount_source", .string(h.mount.source.rawValue))
            // The request types this tracker takes from clients; older trackers leave the key out. Versioning:
            // `version` changes only when a client that knows protocol 1 would misread the stream. Adding keys
            // and messages, or the client→server request channel, keeps it at 1: old clients ignore keys they
            // do not know and send nothing, and new clients tell what a tracker takes by the keys it sends.
            o.add("requests", .array(["ask", "subscribe", "recenter"].map { .string($0) }))
        }.text() + "\n"
        let b = LineBuffer(capacity: 512)
        for byte in text.utf8 { b.byte(byte) }
        return b
    }
}

extension GestureEvent {
    /// The name on the wire (the same as the command line's), as a static string: no allocation.
    public var streamName: StaticString {
        switch self {
        case .nod: return "nod"
        case .shake: return "shake"
        case .up: return "up"
        case .down: return "down"
        case .left: return "left"
        case .right: return "right"
        }
    }
}
