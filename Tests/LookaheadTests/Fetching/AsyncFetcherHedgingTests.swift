import Testing

@testable import Lookahead

/// Tail hedging through ``AsyncFetcher`` (``FetchHedging``): the threshold
/// on the injected clock, the loader called twice, the first result
/// delivered, the other attempt's task cancelled, the events.
@Suite(.timeLimit(.minutes(1)))
struct AsyncFetcherHedgingTests {
    /// One call of the loader: the key and which call for it this is (1, 2, …).
    struct Attempt: Hashable, Sendable {
        let key: Int
        let number: Int
    }

    typealias Fetcher = AsyncFetcher<Int, String>

    /// Numbers the loader's calls per key and parks each in `gate`.
    final class Loader: Sendable {
        let gate = LoadGate<Attempt, String>()
        private let calls = LockedValue<[Int: Int]>([:])

        func load(_ key: Int) async throws -> String {
            let number = calls.withLock { calls in
                calls[key, default: 0] += 1
                return calls[key]!
            }
            return try await gate.load(Attempt(key: key, number: number))
        }
    }

    /// Records events by name, behind a lock.
    final class Events: Sendable {
        private let names = LockedValue<[String]>([])

        func record(_ event: FetchEvent<Int>) {
            let name: String? =
                switch event {
                case .hedgeStarted(let key): "hedge started \(key)"
                case .hedgeWon(let key): "hedge won \(key)"
                default: nil
                }
            if let name { names.withLock { $0.append(name) } }
        }

        var all: [String] { names.withLock { $0 } }
    }

    func makeFetcher(
        _ loader: Loader, clock: ManualClock, hedging: FetchHedging, hedgesDueSoonAtOnce: Bool = true
    ) -> Fetcher {
        Fetcher(
            maxConcurrentLoads: 2, clock: clock, retryPolicy: .never, hedging: hedging,
            hedgesDueSoonAtOnce: hedgesDueSoonAtOnce
        ) { key in
            try await loader.load(key)
        }
    }

    /// A fetcher hedging after 100 ms whose two slots hold display loads of
    /// keys 0 and 1 that have run that long, with a prefetch of `prefetch`
    /// (if any) asked for before the threshold passed.
    func makeFetcherWithTwoSlowDisplayLoads(_ loader: Loader, thenPrefetching prefetch: Int? = nil) async -> Fetcher {
        let clock = ManualClock()
        let fetcher = makeFetcher(loader, clock: clock, hedging: .after(.milliseconds(100)))
        fetcher.fetchAsync(0, priority: .high)
        fetcher.fetchAsync(1, priority: .high)
        await loader.gate.waitForStarts(2)
        if let prefetch { fetcher.fetchAsync(prefetch) }
        await clock.waitForSleepers(count: 2)
        clock.advance(by: .milliseconds(100))
        // The timers' tasks ask for the hedges once they run: until then a
        // freed slot would go to the prefetch, the hedges not yet asked for.
        await yieldUntil { hedgeWaits(0, in: fetcher) && hedgeWaits(1, in: fetcher) }
        return fetcher
    }

    /// Whether the hedge of `key`'s load was asked for and waits for a slot.
    func hedgeWaits(_ key: Int, in fetcher: Fetcher) -> Bool {
        fetcher.withScheduler { scheduler in
            guard let slot = scheduler.loadSlots[key], case .hedgeQueued = scheduler.loads[slot]!.state else {
                return false
            }
            return true
        }
    }

    @Test func aSlowDisplayLoadIsHedgedAndTheFirstToLandWins() async {
        // Given a fetcher that hedges after 200 ms, and a cell waiting for key 0
        let loader = Loader()
        let clock = ManualClock()
        let fetcher = makeFetcher(loader, clock: clock, hedging: .after(.milliseconds(200)))
        let events = Events()
        let observation = fetcher.observe { events.record($0) }
        let delivered = LockedValue<[String]>([])
        fetcher.fetchAsync(0, priority: .high) { result in
            if case .success(let value) = result { delivered.withLock { $0.append(value) } }
        }
        await loader.gate.waitForStarts(1)

        // When 200 ms pass on the fetcher's clock
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(200))

        // Then the loader is called a second time for the same key
        await loader.gate.waitForStarts(2)
        #expect(loader.gate.started == [Attempt(key: 0, number: 1), Attempt(key: 0, number: 2)])
        #expect(fetcher.withScheduler { $0.isHedged(0) })

        // And when the second call lands first, the cell gets its value and the first call's task is cancelled
        loader.gate.succeed(Attempt(key: 0, number: 2), with: "second")
        await loader.gate.waitForCancellations(1)
        await fetcher.waitUntilIdle()
        #expect(loader.gate.cancelled == [Attempt(key: 0, number: 1)])
        #expect(delivered.withLock { $0 } == ["second"])
        #expect(fetcher.statistics.hedgesStarted == 1)
        #expect(fetcher.statistics.hedgesWon == 1)
        #expect(events.all == ["hedge started 0", "hedge won 0"])
        observation.cancel()
    }

    @Test func aPrefetchRaisedToDisplayIsHedgedAndTheFirstAttemptMayStillWin() async {
        // Given a prefetch of key 0 running
        let loader = Loader()
        let clock = ManualClock()
        let fetcher = makeFetcher(loader, clock: clock, hedging: .after(.milliseconds(100)))
        fetcher.fetchAsync(0)
        await loader.gate.waitForStarts(1)

        // When a cell asks for it, and 100 ms pass
        let delivered = LockedValue<[String]>([])
        fetcher.fetchAsync(0, priority: .high) { result in
            if case .success(let value) = result { delivered.withLock { $0.append(value) } }
        }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(100))

        // Then a second attempt starts; the first landing first wins, and the hedge is cancelled
        await loader.gate.waitForStarts(2)
        loader.gate.succeed(Attempt(key: 0, number: 1), with: "first")
        await loader.gate.waitForCancellations(1)
        await fetcher.waitUntilIdle()
        #expect(loader.gate.cancelled == [Attempt(key: 0, number: 2)])
        #expect(delivered.withLock { $0 } == ["first"])
        #expect(fetcher.statistics.hedgesWon == 0)
    }

    /// Whether `fetcher` has found the running attempt of `key` past its threshold.
    func isDue(_ key: Int, in fetcher: Fetcher) -> Bool {
        fetcher.core.state.withLock { state in
            state.hedges.watched.values.contains { if case .due(_, key) = $0 { true } else { false } }
        }
    }

    /// A fetcher hedging after 100 ms (at once for what is due soon, or not),
    /// with a prefetch of key 0 running, due in 2 s, its threshold timer set.
    func prefetchRunningDueInTwoSeconds(
        hedgesDueSoonAtOnce: Bool = true
    ) async -> (loader: Loader, clock: ManualClock, fetcher: Fetcher, request: FetchTask) {
        let loader = Loader()
        let clock = ManualClock()
        let fetcher = makeFetcher(
            loader, clock: clock, hedging: .after(.milliseconds(100)), hedgesDueSoonAtOnce: hedgesDueSoonAtOnce)
        let request = fetcher.fetchAsync(0, deadline: .seconds(2))
        await loader.gate.waitForStarts(1)
        await clock.waitForSleepers(count: 1)
        return (loader, clock, fetcher, request)
    }

    /// Lets attempt `number` of key 0 land, the other be cancelled, the fetcher go idle.
    func finishHedgedLoad(_ loader: Loader, _ fetcher: Fetcher, landing number: Int) async {
        loader.gate.succeed(Attempt(key: 0, number: number), with: "attempt \(number)")
        await loader.gate.waitForCancellations(1)
        await fetcher.waitUntilIdle()
    }

    @Test func aPrefetchIsHedgedWhenReDatedToBeDueSoonAfterItsThreshold() async {
        // Given a fetcher hedging after 100 ms, and a prefetch of key 0 running, due in 2 s
        let (loader, clock, fetcher, request) = await prefetchRunningDueInTwoSeconds()

        // When it has run past its threshold: not hedged, its item is not due soon
        clock.advance(by: .milliseconds(100))
        await yieldUntil { isDue(0, in: fetcher) }
        #expect(loader.gate.started == [Attempt(key: 0, number: 1)])
        #expect(!fetcher.withScheduler { $0.isHedged(0) })

        // And when a frame re-dates it as due within FetchHedging.dueWithin
        request.setDeadline(FetchHedging.dueWithin - .milliseconds(1))

        // Then its hedge starts at once
        await loader.gate.waitForStarts(2)
        #expect(loader.gate.started.last == Attempt(key: 0, number: 2))
        await finishHedgedLoad(loader, fetcher, landing: 2)
    }

    @Test func aPrefetchReDatedToBeDueSoonIsHedgedAtOnceBeforeItsThreshold() async {
        // Given a fetcher hedging after 100 ms, and a prefetch of key 0 running, due in 2 s
        let (loader, _, fetcher, request) = await prefetchRunningDueInTwoSeconds()
        #expect(!isDue(0, in: fetcher))

        // When a frame re-dates it as due within FetchHedging.dueWithin, its threshold not passed
        request.setDeadline(FetchHedging.dueWithin - .milliseconds(1))

        // Then it is hedged at once: the item is about to appear, whatever the load's age
        let hedged = fetcher.withScheduler { $0.isHedged(0) }
        #expect(hedged, "not hedged before its threshold")
        guard hedged else { return }
        await loader.gate.waitForStarts(2)
        #expect(loader.gate.started.last == Attempt(key: 0, number: 2))
        await finishHedgedLoad(loader, fetcher, landing: 1)
    }

    @Test func reDatingHedgesTheLiveAttemptWhateverOtherAttemptsOfTheKeyAreWatched() async {
        // Given a prefetch of key 0 running, due in 2 s, and 63 attempts of key 0 watched beside it
        // that are no longer its load's (as an attempt cancelled but still running is)
        let (loader, _, fetcher, request) = await prefetchRunningDueInTwoSeconds()
        fetcher.core.state.withLock { state in
            let live = state.hedges.watched.values.compactMap { watch -> FetcherCore<Int, String>.Scheduler.LoadID? in
                if case .timing(let id, 0) = watch { id } else { nil }
            }
            guard let slot = live.first?.slot else { return }
            for serial in UInt64(1_000)..<1_063 {
                state.hedges.watched[serial] = .timing(.init(serial: serial, slot: slot), 0)
            }
        }

        // When a frame re-dates it as due soon
        request.setDeadline(FetchHedging.dueWithin - .milliseconds(1))

        // Then the live attempt is hedged, whichever watch the fetcher looks at first
        let hedged = fetcher.withScheduler { $0.isHedged(0) }
        #expect(hedged)
        guard hedged else { return }
        await loader.gate.waitForStarts(2)
        await finishHedgedLoad(loader, fetcher, landing: 1)
    }

    @Test func withoutHedgingDueSoonAtOnceAPrefetchReDatedDueSoonWaitsForItsThreshold() async {
        // Given a fetcher hedging after 100 ms but not at once, and a prefetch of key 0 running, due in 2 s
        let (loader, clock, fetcher, request) = await prefetchRunningDueInTwoSeconds(hedgesDueSoonAtOnce: false)

        // When a frame re-dates it as due soon: not hedged yet
        request.setDeadline(FetchHedging.dueWithin - .milliseconds(1))
        #expect(!fetcher.withScheduler { $0.isHedged(0) })

        // Then it is hedged when its threshold passes
        clock.advance(by: .milliseconds(100))
        await loader.gate.waitForStarts(2)
        #expect(fetcher.withScheduler { $0.isHedged(0) })
        await finishHedgedLoad(loader, fetcher, landing: 1)
    }

    @Test func aPrefetchDueSoonIsHedgedWhenItsThresholdPasses() async {
        // Given a fetcher hedging after 100 ms, and a prefetch of key 0 due in 200 ms
        let loader = Loader()
        let clock = ManualClock()
        let fetcher = makeFetcher(loader, clock: clock, hedging: .after(.milliseconds(100)))
        fetcher.fetchAsync(0, deadline: .milliseconds(200))
        await loader.gate.waitForStarts(1)

        // When 100 ms pass
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(100))

        // Then it is hedged, though no cell asks for it yet
        await loader.gate.waitForStarts(2)
        #expect(fetcher.withScheduler { $0.isHedged(0) })
        loader.gate.succeed(Attempt(key: 0, number: 1), with: "first")
        await loader.gate.waitForCancellations(1)
        await fetcher.waitUntilIdle()
    }

    @Test func afterP90HedgesOnlyOnceDurationsAreObservedAndAtTheirP90() async {
        // Given a fetcher hedging after the p90
        let loader = Loader()
        let clock = ManualClock()
        let fetcher = makeFetcher(loader, clock: clock, hedging: .afterP90)

        // When the first display loads take 10, 20, … ms (no hedge timer before enough of them)
        let samples = FetchHedging.minimumSamples
        for key in 0..<samples {
            fetcher.fetchAsync(key, priority: .high)
            await loader.gate.waitForStarts(key + 1)
            clock.advance(by: .milliseconds(10 * (key + 1)))
            loader.gate.succeed(Attempt(key: key, number: 1), with: "")
            await fetcher.waitUntilIdle()
        }
        #expect(clock.sleepCount == 0, "a hedge timer was set before \(samples) durations were observed")

        // Then the next display load is hedged once their p90 has passed
        fetcher.fetchAsync(100, priority: .high)
        await loader.gate.waitForStarts(samples + 1)
        await expectKey100HedgedAfterTheP90(of: samples, loader, clock, fetcher)
    }

    @Test func afterP90TimesALoadThatStartedBeforeThereWasAThresholdOnceThereIsOne() async throws {
        // Given a fetcher hedging after the p90, a display load of key 100 running since before any landed
        let loader = Loader()
        let clock = ManualClock()
        let fetcher = makeFetcher(loader, clock: clock, hedging: .afterP90)
        fetcher.fetchAsync(100, priority: .high)
        await loader.gate.waitForStarts(1)

        // When enough other display loads land beside it, in 10, 20, … ms, to make a p90
        let samples = FetchHedging.minimumSamples
        for key in 0..<samples {
            let value = Task { try await fetcher.value(for: key) }
            await loader.gate.waitForStarts(key + 2)
            clock.advance(by: .milliseconds(10 * (key + 1)))
            loader.gate.succeed(Attempt(key: key, number: 1), with: "")
            _ = try await value.value
        }

        // Then key 100 is timed from then, and hedged once the p90 has passed again
        let isTimed = fetcher.core.state.withLock { state in
            state.hedges.watched.values.contains { if case .timing(_, 100) = $0 { true } else { false } }
        }
        try #require(isTimed, "the load that started without a threshold is not timed")
        await expectKey100HedgedAfterTheP90(of: samples, loader, clock, fetcher)
    }

    /// With the display load of key 100 timed and `samples` loads landed in
    /// 10, 20, … ms: once their p90 passes on `clock`, key 100's second
    /// attempt starts; then its first lands and the fetcher goes idle.
    func expectKey100HedgedAfterTheP90(
        of samples: Int, _ loader: Loader, _ clock: ManualClock, _ fetcher: Fetcher
    ) async {
        await clock.waitForSleepers(count: 1)
        let p90 = Duration.milliseconds(10 * Int((0.9 * Double(samples)).rounded(.up)))
        clock.advance(by: p90)
        await loader.gate.waitForStarts(samples + 2)
        #expect(loader.gate.started.last == Attempt(key: 100, number: 2))
        loader.gate.succeed(Attempt(key: 100, number: 1), with: "")
        await fetcher.waitUntilIdle()
    }

    @Test func afterP90WithPriorHedgesTheFirstLoadsAfterThePrior() async {
        // Given a fetcher hedging after the p90, or after 50 ms before any load has landed
        let loader = Loader()
        let clock = ManualClock()
        let fetcher = makeFetcher(loader, clock: clock, hedging: .afterP90WithPrior(.milliseconds(50)))

        // When the first display load runs 50 ms
        fetcher.fetchAsync(0, priority: .high)
        await loader.gate.waitForStarts(1)
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(50))

        // Then it is hedged, with no duration observed yet
        await loader.gate.waitForStarts(2)
        #expect(loader.gate.started.last == Attempt(key: 0, number: 2))
        loader.gate.succeed(Attempt(key: 0, number: 1), with: "")
        await fetcher.waitUntilIdle()
    }

    @Test func withNoFreeSlotTheHedgeWaitsForOne() async {
        // Given both slots taken by display loads past their threshold
        let loader = Loader()
        let fetcher = await makeFetcherWithTwoSlowDisplayLoads(loader)

        // When 1 lands, freeing a slot
        loader.gate.succeed(Attempt(key: 1, number: 1), with: "")

        // Then 0 is hedged in it
        await loader.gate.waitForStarts(3)
        #expect(loader.gate.started.last == Attempt(key: 0, number: 2))
        loader.gate.succeed(Attempt(key: 0, number: 1), with: "")
        await fetcher.waitUntilIdle()
        #expect(fetcher.statistics.hedgesStarted == 1)
    }

    @Test func aWaitingHedgeStartsAheadOfWaitingPrefetches() async {
        // Given both slots taken by display loads past their threshold, and a prefetch waiting
        let loader = Loader()
        let fetcher = await makeFetcherWithTwoSlowDisplayLoads(loader, thenPrefetching: 2)

        // When 1 lands, freeing a slot
        loader.gate.succeed(Attempt(key: 1, number: 1), with: "")

        // Then the slot goes to 0's hedge, not to the prefetch that waited longer
        await loader.gate.waitForStarts(3)
        #expect(loader.gate.started.last == Attempt(key: 0, number: 2))
        #expect(fetcher.withScheduler { $0.phase(of: 2) } == .pending(.normal))

        // And when 0's first attempt lands, its hedge is cancelled and the prefetch starts
        loader.gate.succeed(Attempt(key: 0, number: 1), with: "")
        await loader.gate.waitForCancellations(1)
        await loader.gate.waitForStarts(4)
        #expect(loader.gate.started.last == Attempt(key: 2, number: 1))
        #expect(loader.gate.cancelled == [Attempt(key: 0, number: 2)])
        loader.gate.succeed(Attempt(key: 2, number: 1), with: "")
        await fetcher.waitUntilIdle()
        #expect(fetcher.statistics.hedgesStarted == 1)
    }

    @Test func aFetcherWhoseHedgesKeepLosingStopsHedging() async {
        // Given a fetcher hedging after 100 ms whose first attempts have beaten their hedges in the last races
        let loader = Loader()
        let clock = ManualClock()
        let fetcher = makeFetcher(loader, clock: clock, hedging: .after(.milliseconds(100)))
        let races = HedgeBook<Int, FetchPayload<String>>.racesJudged
        for key in 0..<races {
            fetcher.fetchAsync(key, priority: .high)
            await loader.gate.waitForStarts(2 * key + 1)
            await clock.waitForSleepers(count: 1)
            clock.advance(by: .milliseconds(100))
            await loader.gate.waitForStarts(2 * key + 2)
            loader.gate.succeed(Attempt(key: key, number: 1), with: "")
            await loader.gate.waitForCancellations(key + 1)
            await fetcher.waitUntilIdle()
        }
        #expect(fetcher.statistics.hedgesStarted == races)
        #expect(fetcher.statistics.hedgesWon == 0)

        // When the next display load runs past its threshold
        fetcher.fetchAsync(races, priority: .high)
        await loader.gate.waitForStarts(2 * races + 1)
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(100))

        // Then it is not hedged: it stays due, the loader called once for it
        await yieldUntil { isDue(races, in: fetcher) || fetcher.withScheduler { $0.isHedged(races) } }
        #expect(!fetcher.withScheduler { $0.isHedged(races) })
        #expect(loader.gate.started.last == Attempt(key: races, number: 1))
        #expect(fetcher.statistics.hedgesStarted == races)
        #expect(fetcher.statistics.hedgesRefused == 1)
        loader.gate.succeed(Attempt(key: races, number: 1), with: "")
        await fetcher.waitUntilIdle()
    }
}
