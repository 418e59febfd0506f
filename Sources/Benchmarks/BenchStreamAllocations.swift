import LibC
import EventStream
import SimulatedRuns

/// "The loop never allocates per sample for a client": heap allocations of the simulated loop while the event
/// stream publishes to two clients, one reading and one that never reads (so the drop path runs too). The
/// reader also sends an `ask` on every display tick, far over the request limit, so the request parser, the
/// answers, the timeouts, the replacements and the refusals all run in the counted window. Both clients
/// subscribe to `explain` lines first, so the detector's verdicts are formatted and sent (and dropped) too.
public struct StreamAllocationCount: Sendable {
    /// Per wake-up of the loop, after the warm-up.
    public var loop = AllocationTally()
    /// What the counted window held, so that a zero means something: both clients connected (after the
    /// warm-up), gestures published, the reader's bytes and the stalled client's drops.
    public var clientsAccepted = 0
    public var gestures = 0
    public var bytesToReader = 0
    public var stateLinesDroppedForStalledClient = 0
    /// Request lines the server read from the reader, and the answer and error lines it queued for them.
    public var requests = 0
    public var answersAndErrors = 0
    /// `explain` lines sent in the window.
    public var explainLines = 0

    /// `warmUp` seconds (clients accepted, rings filled, the stalled client's drops begun), then `measured`
    /// seconds of simulated time at full speed, counted.
    public static func measure(warmUp: Double = 6, measured: Double = 15) throws -> StreamAllocationCount {
        let path = "/tmp/headtrack-stream-alloc-\(getpid()).sock"
        var settings = EventStream.Settings()
        settings.socketPath = path
        // Small buffers, so the stalled client's ring and socket fill within the warm-up.
        settings.server.ringBytes = 8192
        settings.server.reserveBytes = 1024
        settings.server.kernelSendBufferBytes = 4096
        let options = SimulatedLoopOptions()
        let stream = try EventStream(settings: settings, hello: StreamHello(imu: "MPU-9250", magnetometer: "AK8963",
                                                                            rates: options.config.rates, stateHz: 60))
        defer { stream.stop() }
        let reader = try UnixListener.connectClient(path)
        defer { close(reader) }
        let stalled = try UnixListener.connectClient(path)
        defer { close(stalled) }

        var result = StreamAllocationCount()
        let subscribe: [UInt8] = Array(#"{"type":"subscribe","explain":true}"#.utf8) + [10]
        for client in [reader, stalled] {
            subscribe.withUnsafeBytes { b in _ = send(client, b.baseAddress, b.count, Int32(MSG_NOSIGNAL)) }
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let board = SimulatedLoop.board(options, busTime: true)
        var loop = try SimulatedLoop.make(board: board, clock: board.clock, options: options)
        loop.run(duration: warmUp, shouldStop: { false }) { event, pipeline in stream.handle(event, pipeline) }
        result.clientsAccepted = stream.server.clientCount
        let droppedBefore = stream.server.totals.droppedStateLines
        let totalsBefore = stream.server.totals
        let explainBefore = stream.explainLines
        // Made before the window: sending it is one system call on bytes that exist already.
        let ask: [UInt8] = Array(#"{"type":"ask","id":"bench","timeout_s":0.5}"#.utf8) + [10]
        var gestures = 0
        var bytesToReader = 0
        result.loop = loop.countingAllocations(for: measured) { event, pipeline in
            stream.handle(event, pipeline)
            if case .gesture = event { gestures += 1 }
            if case .display = event {
                let n = recv(reader, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if n > 0 { bytesToReader += n }
                ask.withUnsafeBytes { b in _ = send(reader, b.baseAddress, b.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)) }
            }
        }
        result.gestures = gestures
        result.bytesToReader = bytesToReader
        result.stateLinesDroppedForStalledClient = stream.server.totals.droppedStateLines - droppedBefore
        let totals = stream.server.totals
        result.requests = totals.requests - totalsBefore.requests
        result.answersAndErrors = totals.answers + totals.errors - totalsBefore.answers - totalsBefore.errors
        result.explainLines = stream.explainLines - explainBefore
        return result
    }
}
