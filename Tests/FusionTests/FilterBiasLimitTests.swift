#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Fusion
import Geometry

/// The filter limits its bias estimate after each piece of evidence (rest, tilt, heading): a gyro whose
/// real offset is ten times `maxGyroBias` must still leave the estimate within ±maxGyroBias after every
/// sample, in motion (both kinds of evidence at work) and at rest.
@Suite struct FilterBiasLimitTests {
    @Test func theEstimateStaysWithinTheLimitAfterEverySample() {
        var settings = AttitudeFilter.Settings()
        settings.maxGyroBias = 0.002
        var filter = AttitudeFilter(settings: settings)
        let offset = Vector3(0.02, -0.02, 0.02), dt = 0.005
        var largest = 0.0, reachedTheLimit = false
        for i in 0..<12_000 {
            let t = Double(i) * dt
            // 50 s of turning and nodding, then 10 s still.
            let moving = t < 50
            let yaw = moving ? 0.9 * sin(0.7 * t) : 0, pitch = moving ? 0.3 * sin(1.3 * t) : 0
            let q = Quaternion(axis: Vector3(0, 0, 1), angle: yaw) * Quaternion(axis: Vector3(0, 1, 0), angle: pitch)
            let rates = moving ? Vector3(0, 0.39 * cos(1.3 * t), 0.63 * cos(0.7 * t)) : .zero
            // Body rates of yaw-then-pitch: the pitch rate about body y, the yaw rate about earth z seen in the body.
            let gyro = Quaternion(axis: Vector3(0, 1, 0), angle: pitch).inverseRotate(Vector3(0, 0, rates.z))
                + Vector3(0, rates.y, 0) + offset
            filter.update(gyro: gyro, accel: q.inverseRotate(Vector3(0, 0, 9.81)),
                          mag: q.inverseRotate(Vector3(0, 20, -42)), dt: dt)
            let b = filter.gyroBias
            largest = max(largest, abs(b.x), abs(b.y), abs(b.z))
            if largest == settings.maxGyroBias { reachedTheLimit = true }
        }
        #expect(largest <= settings.maxGyroBias)
        #expect(reachedTheLimit, "the evidence never pushed the estimate to the limit: the test proves nothing")
    }
}
