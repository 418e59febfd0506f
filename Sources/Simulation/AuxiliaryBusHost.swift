/// A chip with an auxiliary I²C bus that can be joined to the host bus (INT_PIN_CFG.BYPASS_EN with the
/// internal I²C master off): a magnetometer behind it answers only while `bypassEnabled`.
public protocol AuxiliaryBusHost: AnyObject {
    var bypassEnabled: Bool { get }
}

/// An IMU with a magnetometer die in its package: the die measures the host's world and answers on the
/// host bus only through the host's bypass.
public protocol MagnetometerHost: AuxiliaryBusHost {
    var motion: MotionScript { get }
    var sensor: SensorModel { get set }
}
