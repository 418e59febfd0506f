#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CAllocCounter
import Evaluation
import SimulatedRuns
import EventStream
import Testing

/// "The loop never allocates per sample for a client", counted by the interposed allocator: the simulated
/// loop runs the demo story with the stream handling every event while two clients are connected (one
/// reading, one never reading, so the drop path runs too).
struct StreamAllocationTests {
    @Test func publishingToClientsAllocatesNothingInSteadyState() throws {
        guard ht_alloc_counting_available() != 0 else {  // musl static builds cannot count
            print("stream allocations: not counted (no allocation counter in this build)")
            return
        }
        #if DEBUG
        // Unoptimised code allocates in the stdlib's unspecialised generics (the loop alone: ~20 per sample in
        // a debug build), so the count means something only in an optimised build:
        //   swift test -c release --filter StreamAllocationTests
        return
        #endif
        let path = "/tmp/headtrack-stream-alloc-\(getpid()).sock"
        var settings = EventStream.Settings()
        settings.socketPath = path
        settings.server.ringBytes = 8192
        settings.server.reserveBytes = 1024
        settings.server.kernelSendBufferBytes = 4096
        let options = SimulatedLoopOptions()
        let stream = try EventStream(settings: settings, hello: StreamHello(imu: "MPU-9250", magnetometer: "AK8963",
                                                                            rates: options.config.rates, stateHz: 60))
        defer { stream.stop() }
        let reader = try connectClient(path)
        let stalled = try connectClient(path)
        defer { close(reader); close(stalled) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var received = 0
        let board = SimulatedLoop.board(options, busTime: true)
        var loop = try SimulatedLoop.make(board: board, clock: board.clock, options: options)
        // Warm-up: clients accepted, rings filled, the stalled client's drop path reached.
        loop.run(duration: 6, shouldStop: { false }) { event, pipeline in stream.handle(event, pipeline) }
        #expect(stream.server.clientCount == 2)
        let setupStart = ht_alloc_thread_count()
        loop.run(duration: 0, shouldStop: { false }) { event, pipeline in stream.handle(event, pipeline) }
        let setup = ht_alloc_thread_count() - setupStart
        let gesturesBefore = countingGestures
        let start = ht_alloc_thread_count()
        loop.run(duration: 15, shouldStop: { false }) { event, pipeline in
            stream.handle(event, pipeline)
            if case .gesture = event { countingGestures += 1 }
            if case .display = event {
                let n = recv(reader, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if n > 0 { received += n }
            }
        }
        let allocations = ht_alloc_thread_count() - start - setup
        print("stream allocations: \(allocations) in 15 s of loop time; \(received) bytes to the reader, "
            + "\(stream.server.totals.droppedStateLines) state lines dropped for the stalled client, "
            + "\(countingGestures - gesturesBefore) gestures")
        #expect(allocations == 0)
        #expect(countingGestures > gesturesBefore)          // the window held gestures (nod, shake)
        #expect(stream.server.totals.droppedStateLines > 0)  // and the stalled client's drops
        #expect(received > 15 * 60 * 150)                    // the reader got its state lines
    }

    func connectClient(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let r = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(r == 0)
        return fd
    }
}

nonisolated(unsafe) private var countingGestures = 0
