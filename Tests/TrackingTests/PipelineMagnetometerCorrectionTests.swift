#if canImport(Glibc)
import Glibc
#endif
import Fusion
import SensorCalibration
import Geometry
import Testing
@testable import Tracking

/// The pipeline applies mount × soft iron as one matrix it forms once. Its order must stay the documented one
/// (hard iron, then soft iron, then the mount): a filter fed with samples corrected step by step by hand must
/// end where the pipeline's filter ends, with a tilted mount and a calibration that has all three parts.
@Suite struct PipelineMagnetometerCorrectionTests {
    @Test func foldedCorrectionIsHardThenSoftIronThenMount() throws {
        var settings = Pipeline.Settings()
        settings.mount = try Mount(parsing: "-x,z,y")
        let softIron = Matrix3(rows: Vector3(1.08, 0.04, -0.02), Vector3(0.04, 0.93, 0.05), Vector3(-0.02, 0.05, 1.01))
        let hardIron = Vector3(12, -7, 30)
        settings.calibration = Calibration(gyroBias: Vector3(0.01, -0.02, 0.005),
                                           magnetometer: MagnetometerCorrection(hardIron: hardIron, softIron: softIron))
        let distortion = try #require(softIron.inverse)
        var pipeline = Pipeline(settings: settings)
        var filter = AttitudeFilter(settings: settings.filter)
        let dt = 0.005
        var previous = -Double.infinity
        for i in 0..<4_000 {
            let t = Double(i) * dt
            // A head turning back and forth in the sensor frame; the field and gravity as the sensor sees them.
            let yaw = 0.8 * sin(0.9 * t), pitch = 0.3 * sin(1.7 * t)
            let q = Quaternion(axis: Vector3(0, 0, 1), angle: yaw) * Quaternion(axis: Vector3(0, 1, 0), angle: pitch)
            let accel = q.inverseRotate(Vector3(0, 0, 9.81)), earthField = Vector3(0, 20, -42)
            let gyro = Vector3(0.01 + 0.3 * cos(1.7 * t), -0.02, 0.005 + 0.72 * cos(0.9 * t))
            // The raw reading: the true field distorted by the soft iron's inverse and offset by the hard iron.
            let raw = distortion * q.inverseRotate(earthField) + hardIron
            _ = pipeline.processIMU(t: t, accel: accel, gyro: gyro, mag: raw)
            let m = settings.sensorToHead.apply(softIron * (raw - hardIron))
            filter.update(gyro: settings.sensorToHead.apply(gyro - settings.calibration.gyroBias),
                          accel: settings.sensorToHead.apply(accel), mag: m, dt: previous.isFinite ? t - previous : 0)
            previous = t
        }
        let a = pipeline.attitude, b = filter.attitude
        // Rounding differs (one matrix instead of two), nothing else: the attitudes agree to 1e-9.
        let sign = a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z < 0 ? -1.0 : 1.0
        let difference = max(abs(a.w - sign * b.w), abs(a.x - sign * b.x), abs(a.y - sign * b.y), abs(a.z - sign * b.z))
        #expect(difference < 1e-9, "pipeline and step-by-step correction differ: \(a) against \(b)")
        #expect(filter.hasHeadingReference && !filter.isMagneticallyDisturbed)
    }
}
