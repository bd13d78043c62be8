// The objects a fetcher torture run acts on — the fetcher, its prefetchers and
// observations, the tasks awaiting values — shared by the run's threads.

import Lookahead

/// The fetcher under torture and everything attached to it, shared by every
/// thread of a run; ``FetcherTortureWorld+Operations`` performs the
/// operations on it.
///
/// Prefetchers and observations live in a few slots that operations create,
/// use and release. Each is taken out of its slot under the slots' lock and
/// released after it, never under it: releasing one runs the fetcher's code.
final class FetcherTortureWorld: Sendable {
    typealias Fetcher = AsyncFetcher<Int, TortureValue>

    /// An object in a slot, with the serial number of its creation: a closure
    /// of a re-entrant release only captures objects created before its owner,
    /// so that captures never form a cycle.
    struct Slot<Object: Sendable>: Sendable {
        let serial: Int
        let object: Object
    }

    /// Weak references to what was released, to check at the end that it is gone.
    struct Released {
        var prefetchers: [WeakReference<Prefetcher<Int, TortureValue>>] = []
        var observations: [WeakReference<FetchObservation>] = []

        mutating func removeDeallocated() {
            prefetchers.removeAll { $0.object == nil }
            observations.removeAll { $0.object == nil }
        }

        var aliveCount: Int {
            prefetchers.count(where: { $0.object != nil }) + observations.count(where: { $0.object != nil })
        }
    }

    static let prefetcherSlotCount = 6
    static let observationSlotCount = 4

    let configuration: FetcherTortureConfiguration
    let fetcher: Fetcher
    let target: any FetchRequestTarget
    let ledger: FetchLedger
    let loader: TortureLoader
    let prefetchers = LockedValue<[Slot<Prefetcher<Int, TortureValue>>?]>(
        Array(repeating: nil, count: prefetcherSlotCount))
    let observations = LockedValue<[Slot<FetchObservation>?]>(Array(repeating: nil, count: observationSlotCount))
    /// The tasks awaiting `value(for:)` since the last checkpoint, with their request numbers.
    let valueTasks = LockedValue<[(request: Int, task: Task<Void, Never>)]>([])
    let released = LockedValue(Released())
    /// Events the observations saw.
    let observedEvents = LockedValue(0)
    private let nextSerial = LockedValue(0)

    init(
        configuration: FetcherTortureConfiguration,
        fetcher: Fetcher,
        target: any FetchRequestTarget,
        ledger: FetchLedger,
        loader: TortureLoader
    ) {
        self.configuration = configuration
        self.fetcher = fetcher
        self.target = target
        self.ledger = ledger
        self.loader = loader
    }

    func makeSerial() -> Int {
        nextSerial.withLock { serial in
            defer { serial += 1 }
            return serial
        }
    }

    /// Takes every `value(for:)` task out, to await them.
    func takeValueTasks() -> [Task<Void, Never>] {
        valueTasks.withLock { tasks in
            defer { tasks.removeAll() }
            return tasks.map(\.task)
        }
    }

    /// Releases every prefetcher and observation, remembering them weakly.
    func releaseAll() {
        var prefetchers = self.prefetchers.withLock { slots in
            defer { slots = Array(repeating: nil, count: slots.count) }
            return slots.compactMap { $0?.object }
        }
        var observations = self.observations.withLock { slots in
            defer { slots = Array(repeating: nil, count: slots.count) }
            return slots.compactMap { $0?.object }
        }
        released.withLock { released in
            released.prefetchers += prefetchers.map(WeakReference.init)
            released.observations += observations.map(WeakReference.init)
        }
        prefetchers.removeAll()
        observations.removeAll()
    }
}

/// A weak reference, for lists of objects whose release is checked.
struct WeakReference<Object: AnyObject> {
    weak var object: Object?

    init(_ object: Object) {
        self.object = object
    }
}
