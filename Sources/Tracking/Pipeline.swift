import Fusion
import SensorCalibration
import Geometry
import Gestures
import Indicators

/// The product's pipeline: the gesture detector of `Gestures`. The loop, `replay`, `demo` and every evaluation
/// of the detector run this type; the lab runs baselines through the same wiring (`TrackingPipeline<R>`).
public typealias Pipeline = TrackingPipeline<GestureDetector>

/// Every algorithm stage, wired in order, in the one place they are connected: raw sensor-frame sample →
/// calibration → mount → attitude filter → (read at the display rate) tilt-compensated compass → smoother →
/// LEDs, and attitude + bias-corrected rate → gesture recognizer → LEDs. A value type with no I/O: the loop, a
/// replay, an evaluation and a test all drive it the same way, with time as an argument.
public struct TrackingPipeline<Recognizer: GestureRecognizer>: Sendable {
    public struct Settings: Sendable {
        /// How the sensor sits on the head (`mount` in the config, `--mount`); nil when nobody said. Then the
        /// sensor's axes are taken as the head's, and the recognizer is told that the head's axes are not known
        /// (a tilt toward a shoulder cannot be told from a nod). That rule follows from this one value here.
        public var mount: Mount? = nil
        /// Gyro bias and magnetometer hard/soft iron from `headtrack calibrate`, applied to raw sensor-frame
        /// samples before the mount (load it with `CalibrationStore.loadKeepingCurrent`).
        public var calibration: Calibration = .none
        /// Hard and soft iron learned while worn, starting from `calibration` (PipelineAutoCalibration.swift);
        /// nil turns it off (`replay --no-auto-calibration`, config `calibration.auto: false`).
        public var autoCalibration: MagnetometerAutoCalibration.Settings? = MagnetometerAutoCalibration.Settings()
        public var filter = AttitudeFilter.Settings()
        public var compass = TiltCompensatedCompass.Settings()
        public var smoother = HeadingSmoother.Settings()
        public var gestures = Recognizer.defaultSettings
        public var leds = LedPanel.Settings()
        public init() {}

        /// The rotation applied to every sample: the mount, or none when no mount is given.
        public var sensorToHead: Mount { mount ?? .identity }
    }

    public let settings: Settings
    public internal(set) var filter: AttitudeFilter
    public let compass: TiltCompensatedCompass
    public private(set) var smoother: HeadingSmoother
    public private(set) var recognizer: Recognizer
    private var gestureInput: GestureInputDecimator
    public private(set) var panel: LedPanel
    public private(set) var displayed = DisplayedHeading(degrees: 0, isLive: false, hasValue: false)
    public private(set) var lastSampleTime = -Double.infinity
    public private(set) var hasMagnetometer = false
    /// Gesture reports grouped into bouts, for the event stream (`GestureBouts`).
    public private(set) var bouts = GestureBouts()
    /// Latest head-frame sample (for views and plots).
    public private(set) var headGyro = Vector3.zero
    /// The background calibration, when on: its correction is the one applied below.
    public internal(set) var autoCalibration: MagnetometerAutoCalibration?
    /// The mount's rotation, formed once, and as a quaternion.
    let mount: Mount
    let mountRotation: Quaternion
    /// Mount × soft iron, and the hard iron: a raw magnetometer sample m is `magnetometerToHead · (m − hardIron)`
    /// in the head frame, one matrix product per sample where soft iron then mount were two. Formed here and
    /// again only when the background calibration changes its correction.
    var magnetometerToHead: Matrix3
    var hardIron: Vector3

    public init(settings: Settings = Settings()) {
        self.settings = settings
        filter = AttitudeFilter(settings: settings.filter)
        compass = TiltCompensatedCompass(settings: settings.compass)
        smoother = HeadingSmoother(settings: settings.smoother)
        recognizer = Recognizer(settings: settings.gestures, headAxesKnown: settings.mount != nil)
        gestureInput = GestureInputDecimator(minimumInterval: Recognizer.inputInterval)
        panel = LedPanel(settings: settings.leds)
        mount = settings.sensorToHead
        mountRotation = mount.sensorToHeadRotation
        magnetometerToHead = Matrix3(rows: mount.forward, mount.left, mount.up) * settings.calibration.magnetometer.softIron
        hardIron = settings.calibration.magnetometer.hardIron
        autoCalibration = settings.autoCalibration.map {
            MagnetometerAutoCalibration(settings: $0, starting: settings.calibration, fromFile: true)
        }
    }

    /// A question is pending (an app asked for a yes or no): the recognizer takes single gestures as the answer
    /// (answer mode); otherwise it runs always-on. The loop sets it from the event stream on every display tick,
    /// `replay --ask` for the whole replay. A reset keeps it: the question is still pending.
    public var listening: Bool {
        get { recognizer.listening }
        set { recognizer.listening = newValue }
    }

    /// The attitude of the head (head → ENU).
    public var attitude: Quaternion { filter.attitude }

    /// The attitude of the sensor itself (sensor → ENU), as a recording's truth columns give it.
    public var sensorAttitude: Quaternion { filter.attitude * mountRotation }

    /// The tilt-compensated heading of the latest sample. Computed when read, not per IMU sample: it depends
    /// only on the filter's state after that sample, and it is read at the display rate (the smoother in
    /// `displayTick`, views, plots), 60 Hz against an IMU at 200 Hz to 1 kHz. Before the filter has its first
    /// attitude there is no heading yet.
    public var heading: HeadingReading {
        guard filter.isInitialized else { return HeadingReading(degrees: 0, validity: .noMagnetometer) }
        return compass.heading(attitude: filter.attitude,
                               magnetometerTrusted: filter.hasHeadingReference && !filter.isMagneticallyDisturbed,
                               hasMagnetometer: hasMagnetometer)
    }

    /// One IMU sample in the sensor frame (SI units) at time `t`; `mag` only when a new one arrived.
    /// Returns the gesture it completed, if any, with its details and bout.
    public mutating func processIMU(t: Double, accel: Vector3, gyro: Vector3, mag: Vector3?) -> ReportedGesture? {
        let dt = lastSampleTime.isFinite ? t - lastSampleTime : 0
        lastSampleTime = t
        let a = mount.apply(accel)
        let g = mount.apply(settings.calibration.correctGyro(gyro))
        var m: Vector3? = nil
        if let raw = mag {
            // = mount.apply(settings.calibration.correctMagnetometer(raw)), to rounding.
            let d = raw - hardIron, r = magnetometerToHead
            m = Vector3(r.row0.dot(d), r.row1.dot(d), r.row2.dot(d))
            hasMagnetometer = true
        }
        headGyro = g
        filter.update(gyro: g, accel: a, mag: m, dt: dt)
        guard filter.isInitialized else { return nil }
        if autoCalibration != nil { learnCalibration(mag: mag) }
        guard let s = gestureInput.add(t: t, gyro: g - filter.gyroBias, accel: a) else { return nil }
        let detected = recognizer.recognize(t: s.t, gyro: s.gyro, accel: s.accel, attitude: filter.attitude)
        bouts.sample(t: s.t, gyro: s.gyro, up: filter.attitude.inverseRotate(Vector3(0, 0, 1)))
        guard let d = detected else { return nil }
        let bout = bouts.gesture(d.event, t: s.t)
        panel.show(GestureLedEvent(d.event), at: t)
        return ReportedGesture(d, t: t, bout: bout)
    }

    /// One display tick (60 Hz): smooth the heading and compute the LED mask.
    public mutating func displayTick(t: Double, dt: Double, fault: Bool) -> UInt64 {
        displayed = smoother.step(raw: heading, dt: dt)
        return panel.mask(at: t, heading: displayed, fault: fault)
    }

    /// Forgets all state (a new recording window, or the chip came back from a reset with a new orientation),
    /// except what the background calibration learned: the iron did not change.
    public mutating func reset() {
        let learned = autoCalibration
        let wasListening = listening
        // A bout does not outlive the reset (the motion history is gone), but its id stays taken: apps match
        // gestures and bout ends by id.
        var keptBouts = bouts
        keptBouts.interrupt()
        self = TrackingPipeline(settings: settings)
        bouts = keptBouts
        listening = wasListening
        if let learned { keepLearned(learned) }
    }
}

extension GestureLedEvent {
    init(_ e: GestureEvent) {
        switch e {
        case .nod: self = .nod
        case .shake: self = .shake
        case .up: self = .up
        case .down: self = .down
        case .left: self = .left
        case .right: self = .right
        }
    }
}
