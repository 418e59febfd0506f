#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Geometry

/// One swing of the head about one gesture axis, from the moment its rate rose above the activity threshold
/// to the moment it fell back.
public struct HalfWave: Sendable, Equatable {
    /// Interpolated threshold crossings (s).
    public var start: Double
    public var end: Double
    /// Rotation vector of the swing (∫ rate dt, head frame, rad): its direction is the rotation axis and sense.
    public var rotation: Vector3
    /// Peak rate about the swing's own axis (rad/s).
    public var peakRate: Double
    /// Largest change of the other axis' rate during the swing (rad/s).
    public var otherChange: Double
    /// Meets every half-wave condition of the settings (peak, duration, dominance).
    public var qualifies: Bool
    /// Qualifying half-waves in the current alternating run, this one included (0 if this one does not qualify).
    public var runLength: Int

    public var duration: Double { end - start }
    public var axis: Vector3 { rotation.normalized }
}

/// Splits the angular rate about one gesture axis into half-waves and counts alternating runs of them.
///
/// The rate is a vector (the horizontal part of the head's rate, or its vertical part), so the tracker needs
/// no fixed reference direction: a swing's axis is the direction of its accumulated rotation, and the next
/// swing alternates if its axis points the opposite way. That is what lets a nod be found without knowing
/// how the board sits on the head: any rotation about a horizontal axis, back and forth, is one.
struct HalfWaveTracker: Sendable {
    // The swing in progress.
    private(set) var isActive = false
    private var start = 0.0
    private var rotation = Vector3.zero
    private var peak = 0.0
    private var otherAtStart = Vector3.zero
    private var otherChange = 0.0
    private var previousComponent = 0.0
    private var previousMagnitude = 0.0

    // The alternating run so far.
    private(set) var runLength = 0
    private var lastAxis = Vector3.zero
    private(set) var lastEnd = -Double.infinity

    /// Forgets the alternating run (after a gesture was reported, or an unrelated movement intervened).
    mutating func endRun() {
        runLength = 0
        lastAxis = .zero
    }

    /// Axis of the swing in progress (unit), or zero.
    var activeAxis: Vector3 { isActive ? rotation.normalized : .zero }
    var activePeak: Double { isActive ? peak : 0 }
    var activeStart: Double { start }

    /// Feeds one sample: `rate` about this tracker's axis, `other` the rate about the other axis, `dt` since
    /// the previous sample. Returns the half-wave that just ended, if one did.
    mutating func update(t: Double, dt: Double, rate: Vector3, other: Vector3,
                         settings: GestureDetector.Settings) -> HalfWave? {
        var finished: HalfWave? = nil
        if isActive {
            let axis = rotation.normalized
            let component = rate.dot(axis)
            let endLevel = settings.activeRate / 2
            if component < endLevel {
                // Interpolate the crossing between the previous sample and this one.
                let fraction = (previousComponent - endLevel) / Swift.max(previousComponent - component, 1e-12)
                let end = t - dt + Swift.min(Swift.max(fraction, 0), 1) * dt
                finished = finish(end: end, settings: settings)
            } else {
                rotation += rate * dt
                peak = Swift.max(peak, component)
                otherChange = Swift.max(otherChange, (other - otherAtStart).length)
                previousComponent = component
            }
        }
        let magnitude = rate.length
        if !isActive && magnitude > settings.activeRate {
            let below = Swift.min(previousMagnitude, settings.activeRate)
            let fraction = (settings.activeRate - below) / Swift.max(magnitude - below, 1e-12)
            start = t - dt + Swift.min(Swift.max(fraction, 0), 1) * dt
            rotation = rate * dt
            peak = magnitude
            otherAtStart = other
            otherChange = 0
            previousComponent = magnitude
            isActive = true
        }
        previousMagnitude = isActive ? 0 : magnitude
        if !isActive && runLength > 0 && t - lastEnd > settings.maxGap { endRun() }
        return finished
    }

    private mutating func finish(end: Double, settings: GestureDetector.Settings) -> HalfWave {
        isActive = false
        let qualifies = peak >= settings.peakRate
            && end - start <= settings.maxHalfWaveDuration
            && peak >= settings.dominance * otherChange
        let axis = rotation.normalized
        if qualifies {
            let alternates = runLength > 0 && axis.dot(lastAxis) < -cos(settings.alternationTolerance)
                && start - lastEnd <= settings.maxGap
            runLength = alternates ? runLength + 1 : 1
            lastAxis = axis
            lastEnd = end
        } else if peak >= settings.peakRate {
            // A brisk movement that is no half-wave (too long, or about a mixed axis) breaks the run; a small
            // wobble does not, only the gap timer limits it.
            endRun()
        }
        return HalfWave(start: start, end: end, rotation: rotation, peakRate: peak, otherChange: otherChange,
                        qualifies: qualifies, runLength: qualifies ? runLength : 0)
    }
}
