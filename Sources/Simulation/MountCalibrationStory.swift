/// What `headtrack calibrate --mount --simulated` plays on the simulated board: a wearer looking straight ahead
/// (a natural 3° nose-down) and still for 3 s, then nodding, then still again.
extension MotionScript {
    public static func mountCalibration(nods: Int = 4) -> MotionScript {
        var s = MotionScript(initialHeading: 90, initialPitch: 3)
        s.append(.still(duration: 3))
        s.append(.nod(cycles: nods, amplitude: 10, frequency: 1.5))
        s.append(.still(duration: 2))
        return s
    }
}
