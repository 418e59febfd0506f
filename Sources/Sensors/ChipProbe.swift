import Hardware

/// What one magnetometer's `probe` saw at its address, in the words `headtrack probe` prints. Each chip's
/// file knows its own identity registers; `BoardDetector` only decides the order and which answer is used.
public struct MagnetometerProbe: Sendable, Equatable {
    /// silent: nothing answered at the address; identified: the chip's own ID answered, it can be used;
    /// unidentified: something answered without the right ID (a config pin may still ask for it);
    /// other: another known part, which this build does not drive.
    public enum Answer: Sendable, Equatable { case silent, identified, unidentified, other }
    public var answer: Answer
    /// Lines for `Detection.findings` and `Detection.notes`, in order.
    public var findings: [String]
    public var notes: [String]
}

extension MagnetometerProbe {
    static let silent = MagnetometerProbe(answer: .silent, findings: [], notes: [])
    static func silent(note: String) -> MagnetometerProbe { MagnetometerProbe(answer: .silent, findings: [], notes: [note]) }
    static func identified(_ finding: String) -> MagnetometerProbe { MagnetometerProbe(answer: .identified, findings: [finding], notes: []) }
    static func unidentified(_ finding: String, note: String? = nil) -> MagnetometerProbe {
        MagnetometerProbe(answer: .unidentified, findings: [finding], notes: note.map { [$0] } ?? [])
    }

    /// The common shape of an identity check: read `count` identity registers; nothing answering is `absent`,
    /// the expected bytes are the chip (`found`), anything else is told by `other` (given the bytes read), as
    /// are the expected bytes when `trusted` is false (the same ID where another part answers it too).
    static func compare<Bus: I2CBus>(_ bus: inout Bus, address: UInt8, register: UInt8, expected: [UInt8], trusted: Bool = true,
                                     absent: MagnetometerProbe = .silent, found: String,
                                     other: (inout Bus, [UInt8]) -> MagnetometerProbe) -> MagnetometerProbe {
        guard let id = bus.probeBytes(address, register, expected.count) else { return absent }
        return id == expected && trusted ? .identified(found) : other(&bus, id)
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
