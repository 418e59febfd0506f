/// Helpers the register-level models share: storing int16 readings the way each chip lays them out.
enum RegisterStorage {
    /// Rounds and clamps to the int16 range the chip's ADC can express.
    static func counts(_ value: Double, limit: Double = 32767) -> Int16 {
        Int16(max(-limit, min(limit, value.rounded())))
    }

    static func storeBigEndian(_ value: Int16, into registers: inout [UInt8], at index: Int) {
        let u = UInt16(bitPattern: value)
        registers[index] = UInt8(u >> 8)
        registers[index + 1] = UInt8(u & 0xFF)
    }

    static func storeLittleEndian(_ value: Int16, into registers: inout [UInt8], at index: Int) {
        let u = UInt16(bitPattern: value)
        registers[index] = UInt8(u & 0xFF)
        registers[index + 1] = UInt8(u >> 8)
    }
}
