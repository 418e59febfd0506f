import Geometry
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Gestures

/// Always-on against answer mode, on head motion with known truth: a level head nodding (about the left axis)
/// or shaking (about the up axis) `cycles` times, 15° each way at 2 Hz, from rest at 1 s.
@Suite struct AnswerModeTests {
    func rate(_ t: Double, cycles: Double, axis: Vector3) -> Vector3 {
        let u = t - 1
        let frequency = 2.0
        guard u >= 0 && u < cycles / frequency else { return .zero }
        let amplitude = 15 * Units.radiansPerDegree
        let omega = 2 * Double.pi * frequency
        return axis * (amplitude * omega * cos(omega * u))
    }

    func events(cycles: Double, axis: Vector3, hz: Double = 100, configure: (inout GestureDetector) -> Void = { _ in })
        -> [GestureEvent] {
        var d = GestureDetector()
        configure(&d)
        var out: [GestureEvent] = []
        for i in 0..<Int(4 * hz) {
            let t = Double(i) / hz
            if let e = d.update(t: t, gyro: rate(t, cycles: cycles, axis: axis), attitude: .identity) { out.append(e) }
        }
        return out
    }

    static let left = Vector3(0, 1, 0)
    static let up = Vector3(0, 0, 1)

    @Test(arguments: [25.0, 100, 1000])
    func aSingleNodAnswersOnlyWhileAQuestionIsPending(hz: Double) {
        #expect(events(cycles: 1, axis: Self.left, hz: hz).isEmpty)
        #expect(events(cycles: 1, axis: Self.left, hz: hz) { $0.listening = true } == [.nod])
    }

    @Test(arguments: [25.0, 100, 1000])
    func aSingleShakeAnswersOnlyWhileAQuestionIsPending(hz: Double) {
        #expect(events(cycles: 1, axis: Self.up, hz: hz).isEmpty)
        #expect(events(cycles: 1, axis: Self.up, hz: hz) { $0.listening = true } == [.shake])
    }

    @Test(arguments: [25.0, 100, 1000])
    func twoCyclesAreOneGestureAlwaysOn(hz: Double) {
        #expect(events(cycles: 2, axis: Self.left, hz: hz) == [.nod])
        #expect(events(cycles: 2, axis: Self.up, hz: hz) == [.shake])
        // And one event in answer mode too: the single gesture is reported, the rest of the run is the same one.
        #expect(events(cycles: 2, axis: Self.left, hz: hz) { $0.listening = true } == [.nod])
    }

    @Test func singleGesturesAlwaysTakesOneCycleWithoutAQuestion() {
        var settings = GestureDetector.Settings()
        settings.singleGesturesAlways = true
        #expect(events(cycles: 1, axis: Self.left) { $0 = GestureDetector(settings: settings) } == [.nod])
        #expect(events(cycles: 1, axis: Self.up) { $0 = GestureDetector(settings: settings) } == [.shake])
    }

    @Test func theAlwaysOnSwingCountIsASetting() {
        var settings = GestureDetector.Settings()
        settings.alwaysOnNodHalfWaves = 6
        // Two cycles are four swings: not enough for six.
        #expect(events(cycles: 2, axis: Self.left) { $0 = GestureDetector(settings: settings) }.isEmpty)
        #expect(events(cycles: 3, axis: Self.left) { $0 = GestureDetector(settings: settings) } == [.nod])
    }

    @Test func aResetKeepsTheQuestionPending() {
        var d = GestureDetector()
        d.listening = true
        d.reset()
        #expect(d.listening)
        // Time going backwards (a new recording window) restarts the detector; the question is still pending.
        _ = d.update(t: 5, gyro: .zero, attitude: .identity)
        _ = d.update(t: 1, gyro: .zero, attitude: .identity)
        #expect(d.listening)
    }

    @Test func theDetectedGestureSaysHowManySwingsItTook() {
        var d = GestureDetector()
        var found: [DetectedGesture] = []
        for i in 0..<400 {
            let t = Double(i) / 100
            if let g = d.detect(t: t, gyro: rate(t, cycles: 2, axis: Self.left), attitude: .identity) { found.append(g) }
        }
        #expect(found.count == 1)
        #expect(found.first?.swings == 4)
        #expect(found.first?.count == 2)
    }
}
