import Hardware

/// What one magnetometer's `probe` saw at its address, in the words `headtrack probe` prints. Each chip's
/// file knows its own identity registers; `BoardDetector` only decides the order and which answer is used.
public struct MagnetometerProbe: Sendable, Equatable {
    public enum Answer: Sendable, Equatable {
        /// Nothing answered at the address.
        case silent
        /// The chip's own ID answered: it can be used.
        case identified
        /// Something answered without the right ID (a config pin may still ask for it).
        case unidentified
        /// Another known part that this build does not drive.
        case other
    }
    public var answer: Answer
    /// Lines for `Detection.findings` and `Detection.notes`, in order.
    public var findings: [String] = []
    public var notes: [String] = []

    public init(_ answer: Answer, findings: [String] = [], notes: [String] = []) {
        self.answer = answer; self.findings = findings; self.notes = notes
    }
}

extension I2CBus {
    /// `count` registers from `register` at `address`, nil when the chip does not answer. Detection only
    /// (it allocates), never the per-sample path.
    mutating func probeBytes(_ address: UInt8, _ register: UInt8, _ count: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: count)
        let ok = out.withUnsafeMutableBufferPointer { b in
            (try? self.readRegisters(address: address, register: register, into: b)) != nil
        }
        return ok ? out : nil
    }
}
