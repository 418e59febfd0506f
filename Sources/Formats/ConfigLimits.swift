/// The accepted range of every number in the config, written once: the config reader and the command-line
/// options that override a field (`run --imu-hz`) check against the same value.
public enum ConfigLimits {
    /// The MPU family's sample-rate divider counts from a 1 kHz base (the gyro's output rate with its
    /// low-pass filter on), so 1 kHz is the top; below 10 Hz a 0.2 s nod half-wave gets two samples.
    public static let imuHz: ClosedRange<Double> = 10...1000
    /// 100 Hz is the fastest continuous mode of the AK8963/AK09916; 1 Hz still follows a slow head turn.
    public static let magHz: ClosedRange<Double> = 1...100
    /// LED and display refresh: 10 Hz still looks steady for a heading, 240 Hz is beyond any eye.
    public static let displayHz: ClosedRange<Double> = 10...240
    /// A magnetic declination is an angle east or west of true north.
    public static let declinationDegrees: ClosedRange<Double> = -180...180
    /// Seconds between two reported gestures; above 10 s the detector would look broken.
    public static let gestureCooldown: ClosedRange<Double> = 0...10
    /// 7-bit I²C addresses outside the ranges the bus reserves (0x00–0x02 and 0x78–0x7f).
    public static let i2cAddress: ClosedRange<Double> = 0x03...0x77
    /// GPIO line offsets: a sanity bound far above any Pi-class GPIO chip (the BCM2711's has 58 lines).
    public static let gpioLine: ClosedRange<Double> = 0...511
    /// Event-stream state lines per second: 0 sends gestures and faults only; state goes out on display ticks,
    /// so the display's top rate is the top here (the stream also caps it at the configured display rate).
    public static let streamStateHz: ClosedRange<Double> = 0...displayHz.upperBound

    /// "10...1000" for help texts and messages.
    public static func text(_ range: ClosedRange<Double>) -> String {
        func number(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x) }
        return number(range.lowerBound) + "..." + number(range.upperBound)
    }
}
