#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Testing
import Tracking
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

/// A stream on a fresh socket with one client connected, its hello waiting.
func openStream(_ name: String) throws -> (EventStream, StreamServerTests.Client) {
    var settings = EventStream.Settings()
    settings.socketPath = StreamServerTests.tempPath(name)
    let stream = try EventStream(settings: settings, hello: StreamHello(imu: "test", magnetometer: "AK8963",
                                                                       rates: LoopRates(), stateHz: 60))
    let client = try StreamServerTests.Client(path: settings.socketPath)
    stream.server.poll(t: 0)
    return (stream, client)
}

/// A JSON array's numbers (none where it is no array).
func numbers(_ v: JSONValue?) -> [Double] {
    guard case let .array(items)? = v else { return [] }
    return items.compactMap { if case let .number(n) = $0 { return n }; return nil }
}
