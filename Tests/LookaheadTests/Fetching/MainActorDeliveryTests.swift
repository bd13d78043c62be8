// Tests of `fetchOnMainActor`: where and when its completions run, in what
// order, and how its handle cancels them.
import LookaheadTestSupport
import Testing

@testable import Lookahead

@Suite(.queuedOnTheMainActor)
@MainActor
struct MainActorDeliveryTests {
    typealias Fetcher = AsyncFetcher<Int, String>

    /// Results delivered on the main actor, in order.
    @MainActor final class Log {
        var results: [Result<String, any Error>] = []
        var values: [String] { results.compactMap { try? $0.get() } }
    }

    func makeFetcher(_ gate: LoadGate<Int, String>, maxConcurrentLoads: Int = 6) -> Fetcher {
        Fetcher(maxConcurrentLoads: maxConcurrentLoads, memoryCache: MemoryCache(countLimit: 10_000)) { key in
            try await gate.load(key)
        }
    }

    @Test func aCachedValueIsDeliveredBeforeTheCallReturns() async {
        // Given a cached value
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        fetcher.memoryCache.setValue("one", forKey: 1)
        let log = Log()

        // When a cell asks for it on the main actor
        let request = fetcher.requestDisplay(of: 1) { log.results.append($0) }

        // Then it has it at once, and the request is over
        #expect(log.values == ["one"])
        #expect(!request.isPending)
    }

    @Test func aLoadedValueArrivesLaterOnTheMainActor() async {
        // Given a value that must be loaded
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        let log = Log()

        // When a cell asks for it
        fetcher.requestDisplay(of: 2, priority: .high) { result in
            MainActor.assertIsolated()
            log.results.append(result)
        }
        // Then nothing is delivered inside the call
        #expect(log.results.isEmpty)
        await gate.waitForStarts(1)
        gate.succeed(2, with: "two")

        // And the value arrives on the main actor
        await yieldUntil { !log.results.isEmpty }
        #expect(log.values == ["two"])
    }

    @Test func completionsRunInTheOrderTheirLoadsFinished() async {
        // Given one slot and five requests, whose loads finish one after another
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate, maxConcurrentLoads: 1)
        let log = Log()
        let order = [3, 1, 4, 0, 2]
        for key in order {
            fetcher.requestDisplay(of: key) { log.results.append($0) }
        }

        // When they finish without the main actor reading the results in between
        for (index, key) in order.enumerated() {
            await gate.waitForStarts(index + 1)
            gate.succeed(key, with: "\(key)")
        }
        await yieldUntil { log.results.count == order.count }

        // Then the completions ran in that order
        #expect(log.values == order.map { "\($0)" })
    }

    @Test func cancellingThroughTheHandleWithdrawsTheRequest() async {
        // Given a main-actor request whose load runs
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        let log = Log()
        let request = fetcher.requestDisplay(of: 5) { log.results.append($0) }
        await gate.waitForStarts(1)

        // When the cell is reused
        request.cancel()

        // Then the completion gets a CancellationError on the main actor, and the load stops
        #expect(log.results.isEmpty)
        await gate.waitForCancellations(1)
        await yieldUntil { !log.results.isEmpty }
        #expect(log.results.count == 1)
        if case .failure(let error) = log.results[0] { #expect(error is CancellationError) } else { Issue.record() }
    }

    @Test func aCancelOnTheMainActorWinsOverAValueNotYetDelivered() async {
        // Given a main-actor completion whose value has been handed over, not yet run
        let queue = MainActorDeliveryQueue()
        let log = Log()
        let completion = MainActorCompletion<String>({ log.results.append($0) }, queue: queue)
        completion.deliver(.success("six"))

        // When the cell is reused before the main actor ran it (no suspension in between)
        completion.cancelDelivery()
        completion.cancelDelivery()
        #expect(log.results.isEmpty)

        // Then it runs once, with a CancellationError, not the stale value
        await yieldUntil { !log.results.isEmpty }
        let drained = LockedValue(false)
        queue.enqueue { drained.withLock { $0 = true } }
        await yieldUntil { drained.withLock { $0 } }
        #expect(log.results.count == 1)
        if case .failure(let error) = log.results[0] { #expect(error is CancellationError) } else { Issue.record() }
    }

    @Test func aCancelAfterTheCompletionRanDoesNothing() async {
        // Given a main-actor completion that has run with its value
        let queue = MainActorDeliveryQueue()
        let log = Log()
        let completion = MainActorCompletion<String>({ log.results.append($0) }, queue: queue)
        completion.deliver(.success("seven"))
        await yieldUntil { !log.results.isEmpty }

        // When it is cancelled
        completion.cancelDelivery()

        // Then nothing more runs
        let drained = LockedValue(false)
        queue.enqueue { drained.withLock { $0 = true } }
        await yieldUntil { drained.withLock { $0 } }
        #expect(log.values == ["seven"])
    }
}
