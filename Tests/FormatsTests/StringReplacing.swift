extension String {
    /// Plain substring replacement without Foundation.
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        var out = ""
        var rest = self[...]
        while let r = rest.firstRange(of: target) {
            out += rest[..<r.lowerBound] + replacement
            rest = rest[r.upperBound...]
        }
        return out + rest
    }
}
