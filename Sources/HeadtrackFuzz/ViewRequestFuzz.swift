import BrowserView

/// The only parser reachable over TCP: `headtrack view`'s request parser and router, as the view feeds them.
/// The first byte picks where the rest is split in two (a request arrives in pieces); the outcome must be the
/// same as with all the bytes at once, a refusal must be an error status with a message, and a complete
/// request must route without trapping.
enum ViewRequestFuzz {
    static func run(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        let body = Array(bytes.dropFirst())
        let whole = outcome(body, split: nil)
        let pieces = outcome(body, split: Int(first) % (body.count + 1))
        guard whole == pieces else { fatalError("the same bytes in two pieces parsed differently: \(whole) vs \(pieces)") }
        switch whole {
        case .incomplete: break
        case let .rejected(why):
            guard (400..<600).contains(why.status), !why.message.isEmpty else { fatalError("a refusal without status or message: \(why)") }
        case let .complete(request):
            if case let .refuse(why) = ViewRouter.route(request), !(400..<600).contains(why.status) {
                fatalError("the router refused with status \(why.status)")
            }
        }
    }

    /// What the parser says once it has seen all of `bytes`, fed whole or as two pieces split at `split`.
    static func outcome(_ bytes: [UInt8], split: Int?) -> HTTPRequestParser.Result {
        var parser = HTTPRequestParser()
        let parts = split.map { [Array(bytes[..<$0]), Array(bytes[$0...])] } ?? [bytes]
        var result = HTTPRequestParser.Result.incomplete
        for part in parts {
            result = part.withUnsafeBytes { parser.feed($0) }
            if case .incomplete = result { continue }
            return result
        }
        return result
    }
}
