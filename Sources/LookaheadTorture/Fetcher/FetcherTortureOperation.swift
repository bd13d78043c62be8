import Lookahead

// The operations of a fetcher torture run and how often each is drawn.

/// One kind of operation a torture thread performs on the fetcher, its
/// prefetchers and observations.
enum FetcherTortureOperation: Int, CaseIterable, Sendable {
    /// `fetchAsync` with a completion (a display request), checked by the ledger.
    case fetchWithCompletion
    /// `fetchAsync` without a completion (a prefetch through the fetcher).
    case prefetchThroughFetcher
    /// `cancelFetch` of a key.
    case cancelFetch
    /// `await value(for:)` in a new task.
    case awaitValue
    /// Cancels one of the tasks awaiting `value(for:)`.
    case cancelValueTask
    /// `startPrefetching(with:)` with a few keys.
    case startPrefetching
    /// `stopPrefetching(with:)` with a few keys.
    case stopPrefetching
    /// `stopPrefetching()`.
    case stopAllPrefetching
    /// Flips `isPaused` of a prefetcher.
    case togglePause
    /// Sets the priority of a prefetcher.
    case changePrefetcherPriority
    /// Sets `didComplete` of a prefetcher.
    case setDidComplete
    /// Creates a prefetcher in an empty slot.
    case createPrefetcher
    /// Releases a prefetcher.
    case releasePrefetcher
    /// Registers an observation in an empty slot.
    case observe
    /// Releases an observation.
    case releaseObservation
    /// Sets `maxConcurrentLoads`.
    case changeMaxConcurrentFetches
    /// Trims or empties the memory cache.
    case trimCache
    /// Reads `fetchedData(for:)` and checks the value's key.
    case peekCache
    /// Lets every load waiting on the hold finish.
    case releaseHeldLoads
    /// Reads the statistics and counts.
    case readStatistics
    /// Gives the processor away a few times, so that the fetcher's workers run
    /// while operations go on: without it a thread's burst of operations
    /// outpaces the loads, which then mostly run at checkpoints, where
    /// nothing cancels them.
    case yieldThread

    /// How often the operation is drawn, relative to the others.
    var weight: Int {
        switch self {
        case .fetchWithCompletion: 20
        case .prefetchThroughFetcher: 6
        case .cancelFetch: 8
        case .awaitValue: 8
        case .cancelValueTask: 4
        case .startPrefetching: 12
        case .stopPrefetching: 6
        case .stopAllPrefetching: 2
        case .togglePause: 3
        case .changePrefetcherPriority: 3
        case .setDidComplete: 2
        case .createPrefetcher: 2
        case .releasePrefetcher: 2
        case .observe: 1
        case .releaseObservation: 1
        case .changeMaxConcurrentFetches: 2
        case .trimCache: 2
        case .peekCache: 8
        case .releaseHeldLoads: 6
        case .readStatistics: 2
        case .yieldThread: 10
        }
    }

    /// Each operation, repeated by its weight: drawing an index draws an operation.
    private static let table: [FetcherTortureOperation] = allCases.flatMap { repeatElement($0, count: $0.weight) }

    /// Draws an operation.
    static func random(using random: inout TortureRandom) -> FetcherTortureOperation {
        table[random.next(below: table.count)]
    }

    /// The operation's name in reports.
    var name: String { "\(self)" }
}
