// The operations of a fetcher torture run, performed on the shared world by
// each thread with its own seeded generator.

import Foundation
import Lookahead

extension FetcherTortureWorld {
    /// Performs `operation` with arguments drawn from `random`.
    func perform(_ operation: FetcherTortureOperation, using random: inout TortureRandom) {
        switch operation {
        case .fetchWithCompletion:
            let key = randomKey(&random)
            let request = ledger.issue(key: key, kind: .completion)
            let ledger = self.ledger
            target.fetchAsync(key, priority: randomPriority(&random)) { result in ledger.record(request, result) }
        case .prefetchThroughFetcher:
            fetcher.fetchAsync(randomKey(&random), priority: randomPriority(&random))
        case .cancelFetch:
            fetcher.cancelPrefetching(for: randomKey(&random))
        case .awaitValue:
            awaitValue(key: randomKey(&random), priority: randomPriority(&random))
        case .cancelValueTask:
            let index = random.next()
            let chosen = valueTasks.withLock { tasks in
                tasks.isEmpty ? nil : tasks[Int(index % UInt64(tasks.count))]
            }
            guard let chosen else { return }
            // Recorded first: the task may end with `CancellationError` at once.
            ledger.cancel(chosen.request)
            chosen.task.cancel()
        case .startPrefetching:
            let keys = randomKeys(&random)
            withPrefetcher(&random) { $0.startPrefetching(with: keys) }
        case .stopPrefetching:
            let keys = randomKeys(&random)
            withPrefetcher(&random) { $0.stopPrefetching(with: keys) }
        case .stopAllPrefetching:
            withPrefetcher(&random) { $0.stopPrefetching() }
        case .togglePause:
            withPrefetcher(&random) { $0.isPaused.toggle() }
        case .changePrefetcherPriority:
            let priority = randomPriority(&random)
            withPrefetcher(&random) { $0.priority = priority }
        case .setDidComplete:
            setDidComplete(using: &random)
        case .createPrefetcher:
            createPrefetcher(using: &random)
        case .releasePrefetcher:
            replace(random.next(below: Self.prefetcherSlotCount), of: prefetchers, with: nil, noting: \.prefetchers)
        case .observe:
            observe(using: &random)
        case .releaseObservation:
            replace(random.next(below: Self.observationSlotCount), of: observations, with: nil, noting: \.observations)
        case .changeMaxConcurrentFetches:
            fetcher.maxConcurrentLoads = 1 + random.next(below: 8)
        case .trimCache:
            if random.percent(10) {
                fetcher.memoryCache.removeAll()
            } else {
                fetcher.memoryCache.trim(toCount: random.next(below: configuration.keyCount / 2 + 1))
            }
        case .peekCache:
            let key = randomKey(&random)
            ledger.recordCached(fetcher.fetchedData(for: key), for: key)
        case .releaseHeldLoads:
            loader.hold.releaseAll()
        case .readStatistics:
            _ = fetcher.statistics
            _ = fetcher.runningLoadCount + fetcher.pendingLoadCount
            withPrefetcher(&random) { _ = $0.completedCount + $0.failedCount + $0.outstandingCount }
        case .yieldThread:
            for _ in 0...random.next(below: 4) { sched_yield() }
        }
    }

    private func randomKey(_ random: inout TortureRandom) -> Int {
        random.next(below: configuration.keyCount)
    }

    private func randomKeys(_ random: inout TortureRandom) -> [Int] {
        (0...random.next(below: 6)).map { _ in randomKey(&random) }
    }

    private func randomPriority(_ random: inout TortureRandom) -> FetchPriority {
        FetchPriority.allCases[random.next(below: FetchPriority.allCases.count)]
    }

    private func awaitValue(key: Int, priority: FetchPriority) {
        let request = ledger.issue(key: key, kind: .value)
        let (target, ledger) = (self.target, self.ledger)
        // Registered before it can be cancelled: a cancellation picks from the list.
        valueTasks.withLock { tasks in
            let task = Task {
                do {
                    ledger.record(request, .success(try await target.value(for: key, priority: priority)))
                } catch {
                    ledger.record(request, .failure(error))
                }
            }
            tasks.append((request, task))
        }
    }

    /// Calls `body` with the prefetcher of a random slot, if there is one,
    /// outside the slots' lock.
    private func withPrefetcher(
        _ random: inout TortureRandom, _ body: (Prefetcher<Int, TortureValue>) -> Void
    ) {
        let slot = random.next(below: Self.prefetcherSlotCount)
        guard let prefetcher = prefetchers.withLock({ $0[slot]?.object }) else { return }
        body(prefetcher)
    }

    private func createPrefetcher(using random: inout TortureRandom) {
        let slot = random.next(below: Self.prefetcherSlotCount)
        guard prefetchers.withLock({ $0[slot] == nil }) else { return }
        let prefetcher = Prefetcher(
            fetcher: fetcher, maxConcurrentRequestCount: 1 + random.next(below: 4), priority: randomPriority(&random))
        replace(slot, of: prefetchers, with: Slot(serial: makeSerial(), object: prefetcher), noting: \.prefetchers)
    }

    private func setDidComplete(using random: inout TortureRandom) {
        let slot = random.next(below: Self.prefetcherSlotCount)
        let other = random.next(below: Self.prefetcherSlotCount)
        let captures = configuration.includesReentrantRelease && random.percent(50)
        let (owner, captured) = prefetchers.withLock { slots in (slots[slot], slots[other]) }
        guard let owner else { return }
        let counter = observedEvents
        if captures, let captured, captured.serial < owner.serial {
            // Releasing `owner` drops this closure, and with it maybe the last
            // reference to `captured`, from inside the fetcher.
            let object = captured.object
            owner.object.didComplete = { _ = object.outstandingCount }
        } else {
            owner.object.didComplete = { counter.withLock { $0 += 1 } }
        }
    }

    private func observe(using random: inout TortureRandom) {
        let slot = random.next(below: Self.observationSlotCount)
        let other = random.next(below: Self.observationSlotCount)
        let captures = configuration.includesReentrantRelease && random.percent(50)
        let captured = observations.withLock { slots in slots[other] }
        let counter = observedEvents
        let observation: FetchObservation
        if captures, let captured {
            // Releasing this observation drops its handler, and with it maybe
            // the last reference to `captured`, from inside the fetcher.
            let object = captured.object
            observation = fetcher.observe { _ in
                withExtendedLifetime(object) { counter.withLock { $0 += 1 } }
            }
        } else {
            observation = fetcher.observe { _ in counter.withLock { $0 += 1 } }
        }
        replace(slot, of: observations, with: Slot(serial: makeSerial(), object: observation), noting: \.observations)
    }

    /// Puts `new` in slot `slot` of `slots` (`nil` empties it) and notes the
    /// object it displaces as released, to check at the end that it is gone.
    /// The displaced object is dropped when this returns, after both locks:
    /// releasing it runs the fetcher's code.
    private func replace<Object: AnyObject & Sendable>(
        _ slot: Int, of slots: LockedValue<[Slot<Object>?]>, with new: Slot<Object>?,
        noting list: WritableKeyPath<Released, [WeakReference<Object>]>
    ) {
        let displaced = slots.withLock { slots in
            defer { slots[slot] = new }
            return slots[slot]
        }
        guard let displaced else { return }
        released.withLock { $0[keyPath: list].append(WeakReference(displaced.object)) }
    }
}
