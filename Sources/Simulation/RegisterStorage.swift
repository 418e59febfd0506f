/// Helpers the register-level models share: storing int16 readings the way each chip lays them out.
enum RegisterStorage {
    /// Rounds and clamps to the int16 range the chip's ADC can express.
    static func counts(_ value: Double, limit: Double = 32767) -> Int16 {
        Int16(max(-limit, min(limit, value.rounded())))
    }

    /// The register file after power-on or a soft reset: 0 except the registers the datasheet gives another value.
    static func powerOn(_ registers: inout [UInt8], _ values: [(register: Int, value: UInt8)]) {
        for i in registers.indices { registers[i] = 0 }
        for (register, value) in values { registers[register] = value }
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
