// Tests that nothing user-supplied is released or called under a fetcher's
// lock: each scenario re-enters the same lock from a closure's captures (a
// deinit). Before the fix, each one trapped on the lock's error check (debug)
// or deadlocked (release), so each runs in its own process.
import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1)))
struct LockReentrancyTests {
    @Test func replacingDidCompleteThatOwnsAnotherPrefetcherOfTheFetcher() async {
        await #expect(processExitsWith: .success) {
            // Given a prefetcher whose didComplete owns the last reference to another one
            let fetcher = AsyncFetcher<Int, String> { "\($0)" }
            let near = Prefetcher(fetcher: fetcher)
            var far: Prefetcher<Int, String>? = Prefetcher(fetcher: fetcher)
            near.didComplete = { [far] in _ = far }
            far = nil

            // When the closure is replaced, the other prefetcher deinits (and takes the fetcher's lock)
            near.didComplete = nil

            // Then nothing traps or deadlocks
            #expect(near.didComplete == nil)
        }
    }

    @Test func releasingAPrefetcherWhoseDidCompleteOwnsAnotherOne() async {
        await #expect(processExitsWith: .success) {
            // Given a prefetcher whose didComplete owns the last reference to another one
            let fetcher = AsyncFetcher<Int, String> { "\($0)" }
            var near: Prefetcher<Int, String>? = Prefetcher(fetcher: fetcher)
            var far: Prefetcher<Int, String>? = Prefetcher(fetcher: fetcher)
            near?.didComplete = { [far] in _ = far }
            far = nil

            // When the first one deinits
            near = nil

            // Then nothing traps or deadlocks, and the fetcher still works
            #expect(near == nil)
            let value = try? await fetcher.value(for: 1)
            #expect(value == "1")
        }
    }

    @Test func cancellingAnObservationWhoseHandlerOwnsAnotherObservation() async {
        await #expect(processExitsWith: .success) {
            // Given an observation whose handler owns the last reference to another one
            let fetcher = AsyncFetcher<Int, String> { "\($0)" }
            var inner: FetchObservation? = fetcher.observe { _ in }
            let outer = fetcher.observe { [inner] _ in _ = inner }
            inner = nil

            // When it is cancelled, the other one deinits (and cancels itself)
            outer.cancel()

            // Then nothing traps or deadlocks
            let value = try? await fetcher.value(for: 2)
            #expect(value == "2")
        }
    }
}
