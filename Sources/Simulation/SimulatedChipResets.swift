import Sensors

// Power-on reset for the models written before `SimulatedChip.powerOnReset()` existed.

extension AK8963Model {
    /// A power loss resets the AK8963 as its soft reset does: power-down mode, no data.
    public func powerOnReset() { reset() }
}

/// A chip with an auxiliary I²C bus that can be joined to the host bus (INT_PIN_CFG.BYPASS_EN with the
/// internal I²C master off): a magnetometer behind it answers only while `bypassEnabled`.
public protocol AuxiliaryBusHost: AnyObject {
    var bypassEnabled: Bool { get }
}

