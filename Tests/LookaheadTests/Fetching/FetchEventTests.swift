import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1)))
struct FetchEventTests {
    typealias Fetcher = AsyncFetcher<Int, String>

    /// Records events, behind a lock.
    final class Recorder: Sendable {
        private let events = LockedValue<[String]>([])
        private let durations = LockedValue<[Duration]>([])

        func record(_ event: FetchEvent<Int>) {
            let name: String
            switch event {
            case .started(let key): name = "started \(key)"
            case .succeeded(let key, _): name = "succeeded \(key)"
            case .failed(let key, let error, _): name = "failed \(key) \(error)"
            case .cancelled(let key, _): name = "cancelled \(key)"
            case .hedgeStarted(let key): name = "hedge started \(key)"
            case .hedgeWon(let key): name = "hedge won \(key)"
            }
            events.withLock { $0.append(name) }
            if let duration = event.duration { durations.withLock { $0.append(duration) } }
        }

        var all: [String] { events.withLock { $0 } }
        var allDurations: [Duration] { durations.withLock { $0 } }
    }

    func makeFetcher(_ gate: LoadGate<Int, String>, retryPolicy: RetryPolicy = .never) -> Fetcher {
        Fetcher(maxConcurrentLoads: 2, clock: ManualClock(), retryPolicy: retryPolicy) { key in
            try await gate.load(key)
        }
    }

    @Test func everyAttemptReportsItsStartAndItsEnd() async {
        // Given an observed fetcher
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        let recorder = Recorder()
        let observation = fetcher.observe { recorder.record($0) }

        // When one load succeeds, one fails and one is cancelled
        fetcher.fetchAsync(1)
        fetcher.fetchAsync(2)
        await gate.waitForStarts(2)
        gate.succeed(1, with: "one")
        gate.fail(2, with: TestError(message: "boom"))
        await fetcher.waitUntilIdle()
        fetcher.fetchAsync(3)
        await gate.waitForStarts(3)
        fetcher.cancelPrefetching(for: 3)
        await gate.waitForCancellations(1)
        await fetcher.waitUntilIdle()

        // Then each attempt told its start and its end, with a duration
        let events = recorder.all
        #expect(
            Set(events.prefix(4)) == ["started 1", "started 2", "succeeded 1", #"failed 2 TestError(message: "boom")"#])
        #expect(Array(events.suffix(2)) == ["started 3", "cancelled 3"])
        #expect(recorder.allDurations.count == 3)
        #expect(recorder.allDurations.allSatisfy { $0 >= .zero })
        withExtendedLifetime(observation) {}
    }

    @Test func loadDurationsAreMeasuredOnTheInjectedClock() async {
        // Given an observed fetcher on a manual clock
        let clock = ManualClock()
        let gate = LoadGate<Int, String>()
        let fetcher = Fetcher(maxConcurrentLoads: 2, clock: clock, retryPolicy: .never) { key in
            try await gate.load(key)
        }
        let recorder = Recorder()
        let observation = fetcher.observe { recorder.record($0) }

        // When a load takes 300 ms of the clock's time
        fetcher.fetchAsync(1)
        await gate.waitForStarts(1)
        clock.advance(by: .milliseconds(300))
        gate.succeed(1, with: "one")
        await fetcher.waitUntilIdle()

        // Then its event reports exactly those 300 ms, whatever the wall clock did
        #expect(recorder.allDurations == [.milliseconds(300)])
        observation.cancel()
    }

    @Test func aRetriedLoadReportsEachAttempt() async {
        let gate = LoadGate<Int, String>()
        let clock = ManualClock()
        let fetcher = Fetcher(maxConcurrentLoads: 1, clock: clock, retryPolicy: .default) { key in
            try await gate.load(key)
        }
        let recorder = Recorder()
        let observation = fetcher.observe { recorder.record($0) }

        fetcher.fetchAsync(5)
        await gate.waitForStarts(1)
        gate.fail(5, with: FlakyError())
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(1))
        await gate.waitForStarts(2)
        gate.succeed(5, with: "five")
        await fetcher.waitUntilIdle()

        #expect(recorder.all == ["started 5", "failed 5 FlakyError()", "started 5", "succeeded 5"])
        withExtendedLifetime(observation) {}
    }

    @Test func anEndedObservationHearsNothingMore() async {
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        let recorder = Recorder()
        var observation: FetchObservation? = fetcher.observe { recorder.record($0) }
        fetcher.fetchAsync(1)
        await gate.waitForStarts(1)
        gate.succeed(1, with: "one")
        await fetcher.waitUntilIdle()
        #expect(recorder.all == ["started 1", "succeeded 1"])

        // When the observation is released
        observation = nil
        fetcher.fetchAsync(2)
        await gate.waitForStarts(2)
        gate.succeed(2, with: "two")
        await fetcher.waitUntilIdle()

        // Then the second load went unheard
        #expect(observation == nil)
        #expect(recorder.all == ["started 1", "succeeded 1"])
    }

    @Test func theEventStreamYieldsTheSameEvents() async {
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        let stream = fetcher.events()
        fetcher.fetchAsync(4)
        await gate.waitForStarts(1)
        gate.succeed(4, with: "four")
        await fetcher.waitUntilIdle()

        var keys: [String] = []
        for await event in stream {
            keys.append(event.duration == nil ? "start \(event.key)" : "end \(event.key)")
            if keys.count == 2 { break }
        }
        #expect(keys == ["start 4", "end 4"])
    }

    @Test func aSlowConsumerFindsOnlyTheNewestBufferedEvents() async {
        // Given a stream that keeps the newest three events, not being read
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        let stream = fetcher.events(bufferingPolicy: .bufferingNewest(3))

        // When five loads report ten events
        for key in 1...5 {
            fetcher.fetchAsync(key)
            await gate.waitForStarts(key)
            gate.succeed(key, with: "\(key)")
            await fetcher.waitUntilIdle()
        }

        // Then the consumer finds the newest three; the older seven were dropped
        var iterator = stream.makeAsyncIterator()
        var seen: [String] = []
        for _ in 0..<3 {
            if let event = await iterator.next() { seen.append(Self.describe(event)) }
        }
        #expect(seen == ["succeeded 4", "started 5", "succeeded 5"])
        // and the next event it reads is the next one to happen
        fetcher.fetchAsync(6)
        await gate.waitForStarts(6)
        if let event = await iterator.next() { seen.append(Self.describe(event)) }
        #expect(seen.last == "started 6")
        gate.succeed(6, with: "6")
        await fetcher.waitUntilIdle()
    }

    @Test func theDefaultBufferIsBounded() async {
        // Given the default stream, not being read, and loads that finish at once
        let fetcher = Fetcher(maxConcurrentLoads: 2, memoryCache: MemoryCache(countLimit: 0)) { key in "\(key)" }
        let stream = fetcher.events()
        let limit = Fetcher.defaultEventBufferLimit

        // When more events happen than the buffer holds
        let loads = limit / 2 + 10
        for key in 0..<loads {
            fetcher.fetchAsync(key)
        }
        await fetcher.waitUntilIdle()

        // Then exactly `limit` events are buffered: the next one read after them is a new one
        var iterator = stream.makeAsyncIterator()
        for _ in 0..<limit { _ = await iterator.next() }
        fetcher.fetchAsync(-1)
        await fetcher.waitUntilIdle()
        let next = await iterator.next()
        #expect(next.map(Self.describe) == "started -1")
    }

    static func describe(_ event: FetchEvent<Int>) -> String {
        switch event {
        case .started(let key): "started \(key)"
        case .succeeded(let key, _): "succeeded \(key)"
        case .failed(let key, _, _): "failed \(key)"
        case .cancelled(let key, _): "cancelled \(key)"
        case .hedgeStarted(let key): "hedge started \(key)"
        case .hedgeWon(let key): "hedge won \(key)"
        }
    }
}
