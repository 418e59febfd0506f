#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Testing
@testable import Formats
@testable import EventStream

/// Sends `text` from a test client (all of it: it is small).
func say(_ client: StreamServerTests.Client, _ text: String) {
    var bytes = Array(text.utf8)
    let n = send(client.fd, &bytes, bytes.count, Int32(MSG_NOSIGNAL))
    #expect(n == bytes.count)
}

/// The `error` line the server sends for a refused request (without its newline).
func errorLine(_ why: RequestRefusal) -> String {
    let line = LineBuffer(capacity: 256)
    line.literal("{\"type\":\"error\",\"message\":")
    line.string(why.message)
    line.literal("}")
    return line.text
}
