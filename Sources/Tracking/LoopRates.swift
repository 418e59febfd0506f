import Sensors

/// Rates of the loop's stages, in Hz.
public struct LoopRates: Sendable, Equatable {
    public var imuHz = IMUSettings.defaultSampleRateHz
    public var magHz: Double = 100
    public var displayHz: Double = 60
    /// Read-back of the chip's configuration, to notice a chip that lost power and came back reset.
    public var healthCheckHz: Double = 10
    public init() {}
}
