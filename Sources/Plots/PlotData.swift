import Gestures
import Indicators

/// What a replay or demo saw, as plain series on one time axis, for `SVGPlot`. Fill it with `append` once per
/// tick (display or sensor rate, any spacing); use `.nan` for "no value here" (invalid heading, no attitude yet).
public struct PlotData: Sendable {
    /// A detected gesture.
    public struct Event: Sendable, Equatable {
        public var t: Double
        /// "nod", "shake", "up", "down", "left" or "right".
        public var label: String
        public init(t: Double, label: String) { self.t = t; self.label = label }
    }

    /// A labelled stretch of ground truth (a bout of nodding or shaking from a truth file).
    public struct Bout: Sendable, Equatable {
        public var start: Double
        public var end: Double
        public var label: String
        public init(start: Double, end: Double, label: String) { self.start = start; self.end = end; self.label = label }
    }

    /// Shown above the plot (file name, speed, ...).
    public var title: String
    /// Time of each row (s), increasing.
    public var time: [Double] = []
    /// Raw compass heading (degrees, [0, 360)); `.nan` while invalid.
    public var rawHeading: [Double] = []
    /// Displayed (smoothed) heading (degrees, [0, 360)); `.nan` before the first value.
    public var smoothedHeading: [Double] = []
    /// Roll and pitch of the head (degrees).
    public var roll: [Double] = []
    public var pitch: [Double] = []
    /// Angular rate (°/s) about the head's nod axis (left, levelled) and shake axis (vertical), as the gesture
    /// detector sees them.
    public var nodRate: [Double] = []
    public var shakeRate: [Double] = []
    /// LED states: bit `Led.rawValue` set when that LED is on.
    public var leds: [UInt8] = []
    /// Gesture rate thresholds (°/s), drawn as dashed lines at ± each value on the rate panel.
    public var rateThresholds: [Double]
    public var gestures: [Event] = []
    public var truthBouts: [Bout] = []

    /// `rateThresholds` defaults to the default gesture detector's swing start and required peak, in °/s.
    public init(title: String, rateThresholds: [Double] = PlotData.detectorThresholds(GestureDetector.Settings())) {
        self.title = title
        self.rateThresholds = rateThresholds
    }

    /// A detector's swing-start and peak rates in °/s, for the dashed lines.
    public static func detectorThresholds(_ s: GestureDetector.Settings) -> [Double] {
        [s.activeRate * 180 / Double.pi, s.swingRate * 180 / Double.pi]
    }

    public mutating func reserveCapacity(_ n: Int) {
        time.reserveCapacity(n); rawHeading.reserveCapacity(n); smoothedHeading.reserveCapacity(n)
        roll.reserveCapacity(n); pitch.reserveCapacity(n); nodRate.reserveCapacity(n); shakeRate.reserveCapacity(n)
        leds.reserveCapacity(n)
    }

    /// One row. Angles in degrees, rates in °/s; `ledMask` as `LedPanel.mask` returns it.
    public mutating func append(t: Double, rawHeading: Double, smoothedHeading: Double, roll: Double, pitch: Double,
                                nodRate: Double, shakeRate: Double, ledMask: UInt64) {
        time.append(t)
        self.rawHeading.append(rawHeading)
        self.smoothedHeading.append(smoothedHeading)
        self.roll.append(roll)
        self.pitch.append(pitch)
        self.nodRate.append(nodRate)
        self.shakeRate.append(shakeRate)
        leds.append(UInt8(truncatingIfNeeded: ledMask))
    }

    /// The rows, events and bouts between `start` and `end` (s), to look closely at a few seconds.
    public func window(from start: Double, to end: Double) -> PlotData {
        var w = PlotData(title: title, rateThresholds: rateThresholds)
        let rows = time.indices.filter { time[$0] >= start && time[$0] <= end }
        func pick(_ series: [Double]) -> [Double] { rows.map { PlotData.value(series, $0) } }
        w.time = rows.map { time[$0] }
        w.rawHeading = pick(rawHeading); w.smoothedHeading = pick(smoothedHeading)
        w.roll = pick(roll); w.pitch = pick(pitch); w.nodRate = pick(nodRate); w.shakeRate = pick(shakeRate)
        w.leds = rows.map { $0 < leds.count ? leds[$0] : 0 }
        w.gestures = gestures.filter { $0.t >= start && $0.t <= end }
        w.truthBouts = truthBouts.filter { $0.end >= start && $0.start <= end }
        return w
    }

    /// The number of rows every series agrees on (a short series simply ends early in the plot).
    var count: Int { time.count }

    /// Value `i` of a series, `.nan` when the series is shorter than the time axis.
    static func value(_ series: [Double], _ i: Int) -> Double { i < series.count ? series[i] : .nan }
}
