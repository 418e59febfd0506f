import CAllocCounter
import Benchmarks
import Testing

/// "The loop never allocates per sample for a client", counted by the interposed allocator while the simulated
/// loop runs the demo story with two clients connected (one reading, one never reading, so the drop path runs
/// too). The count means something only in an optimised build: unoptimised code allocates in the standard
/// library's unspecialised generics (~20 per sample for the loop alone). CI checks it in a release build with
/// `scripts/allocation-guard.sh`; here, `swift test -c release --filter StreamAllocationTests`.
struct StreamAllocationTests {
    static let optimisedWithCounter: Bool = {
        #if DEBUG
        return false
        #else
        return ht_alloc_counting_available() != 0
        #endif
    }()

    /// The window the count is taken over holds what the claim is about, in any build.
    @Test func theCountedWindowHoldsGesturesTrafficAndDrops() throws {
        let count = try StreamAllocationCount.measure()
        #expect(count.clientsAccepted == 2)
        #expect(count.gestures >= 1)                            // the story's shake at 6.7 s falls in it
        #expect(count.stateLinesDroppedForStalledClient > 0)   // the stalled client's drop path ran
        #expect(count.bytesToReader > 15 * 60 * 150)           // the reader got its 60 Hz state lines
        #expect(count.loop.steps > 15 * 200)                    // every 200 Hz wake-up was counted
        #expect(count.explainLines >= 1)                        // verdicts were formatted and sent
    }

    @Test(.enabled(if: StreamAllocationTests.optimisedWithCounter,
                   "needs an optimised build with the allocation counter (scripts/allocation-guard.sh checks it in CI)"))
    func publishingToClientsAllocatesNothingInSteadyState() throws {
        let count = try StreamAllocationCount.measure()
        #expect(count.loop.allocations == 0)
    }
}
