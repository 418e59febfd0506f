import Geometry
import Hardware

/// What AKM's magnetometers share (AK8963: MS1356-E-02 §8; AK09916: 015007392-E-02 §10–11): the company
/// code 0x48 in WIA (WIA1 on the AK09916), ST1's DRDY and DOR bits, ST2's HOFL bit, and a data read that
/// runs from ST1 through ST2. Reading ST2 ends the measurement (releases the latch), so the block is always
/// read whole, in one transfer.
public enum AKM {
    public static let companyID: UInt8 = 0x48
    public static let st1DataReady: UInt8 = 0x01
    public static let st1DataOverrun: UInt8 = 0x02
    public static let st2Overflow: UInt8 = 0x08

    /// The block from ST1 to ST2 (ST2 is byte 7 on the AK8963, byte 8 on the AK09916, after a dummy byte):
    /// the field in the die's axes (three little-endian int16 right after ST1, in LSB) and whether a
    /// measurement was lost before it; nil when no new measurement is ready; `.magneticOverflow` on HOFL.
    @inline(__always)
    static func readMeasurement<Bus: I2CBus>(_ bus: inout Bus, address: UInt8, st1Register: UInt8,
                                             st2At: Int) throws(SensorError) -> (die: Vector3, overrun: Bool)? {
        var raw = (UInt64(0), UInt64(0))
        do {
            try withUnsafeMutableBytes(of: &raw) { (bytes) throws(I2CError) in
                let block = UnsafeMutableBufferPointer(rebasing: bytes.bindMemory(to: UInt8.self)[0...st2At])
                try bus.readRegisters(address: address, register: st1Register, into: block)
            }
        } catch { throw .bus(error) }
        return try withUnsafeBytes(of: &raw) { (b) throws(SensorError) -> (die: Vector3, overrun: Bool)? in
            if b[0] & st1DataReady == 0 { return nil }
            if b[st2At] & st2Overflow != 0 { throw .magneticOverflow }
            func le(_ i: Int) -> Double { Double(Int16(bitPattern: UInt16(b[i + 1]) << 8 | UInt16(b[i]))) }
            return (Vector3(le(1), le(3), le(5)), b[0] & st1DataOverrun != 0)
        }
    }
}
