// The outcome of a fetcher torture run: violation counts (all zero when the
// fetcher behaved) and tallies that show the run exercised what it should.

public import Lookahead

/// The result of a fetcher torture run.
///
/// ``violations`` sums the violation counts; any non-zero count is a bug in
/// the fetcher (or, when a test injects one, a fault the checker caught).
public struct FetcherTortureReport: Sendable, Encodable, Equatable {
    /// Display requests as the checker saw them (``FetchLedger``): what they
    /// received, and the violations it found.
    public struct Requests: Sendable, Encodable, Equatable {
        /// Display requests made (`fetchAsync` with a completion, `value(for:)`).
        public var made = 0
        /// Values or loader errors delivered for another key than requested,
        /// or found in the cache under another key. A violation.
        public var misdelivered = 0
        /// Requests that never ended. A violation.
        public var lostCompletions = 0
        /// Deliveries to a request that had already ended. A violation.
        public var duplicateCompletions = 0
        /// Failures that neither the loader produced nor a cancellation
        /// explains. A violation.
        public var unexpectedFailures = 0
        /// Correct values delivered.
        public var values = 0
        /// Loader failures delivered (permanent, or transient after the retries).
        public var loaderFailures = 0
        /// `value(for:)` calls that ended with `CancellationError` after their
        /// task was cancelled.
        public var cancellations = 0
        /// Cached values checked against their key.
        public var cachePeeks = 0

        /// Creates empty counts.
        public init() {}

        /// The violations among these counts.
        public var violations: Int { misdelivered + lostCompletions + duplicateCompletions + unexpectedFailures }
    }

    /// What the run's loader did.
    public struct LoaderCalls: Sendable, Encodable, Equatable {
        /// Calls of the loader.
        public var calls = 0
        /// Calls not returned yet.
        public var active = 0
        /// Transient failures the loader produced.
        public var transientFailures = 0
        /// Permanent failures the loader produced.
        public var permanentFailures = 0
        /// Calls that gave up because their task was cancelled.
        public var cancelled = 0
        /// Calls that returned a value although their task was cancelled.
        public var ignoredCancellations = 0

        /// Creates empty counts.
        public init() {}
    }

    /// Operations performed.
    public var operations = 0
    /// The seed the run derives from.
    public var seed: UInt64 = 0
    /// Threads that issued operations at once.
    public var threads = 0
    /// Whether re-entrant releases were part of the mix.
    public var reentrantRelease = false

    /// Sum of the violation counts: ``Requests/violations`` and the three below.
    public var violations: Int { requests.violations + leakedTasks + loadsActiveAtIdle + stuckPrefetches }
    /// The display requests checked, with their violations.
    public var requests = Requests()
    /// What outlived the fetcher: the fetcher, its prefetchers and observations
    /// and the loader's captured sentinel still alive, plus loader calls still
    /// running, once everything was released and given time to wind down.
    public var leakedTasks = 0
    /// Loader calls still running while the fetcher reported itself idle.
    public var loadsActiveAtIdle = 0
    /// Keys of a prefetcher, not paused, still outstanding while the fetcher
    /// reported itself idle.
    public var stuckPrefetches = 0

    /// The loader's calls.
    public var loader = LoaderCalls()
    /// The fetcher's own counters when the run ended (``AsyncFetcher/statistics``):
    /// its loads, retries, cancellations, cache hits and hedges.
    public var fetcher = FetchStatistics()
    /// Operations performed, by kind.
    public var operationCounts: [String: Int] = [:]
    /// Checkpoints passed (idle waits with every request checked).
    public var checkpoints = 0
    /// Wall-clock seconds the run took.
    public var elapsedSeconds = 0.0
    /// Operations per second of wall-clock time.
    public var operationsPerSecond = 0.0

    /// Creates an empty report.
    public init() {}

    private enum CodingKeys: String, CodingKey {
        case operations, seed, threads, reentrantRelease, violations, requests, leakedTasks, loadsActiveAtIdle
        case stuckPrefetches, loader, fetcher, operationCounts, checkpoints, elapsedSeconds
        case operationsPerSecond
    }

    /// Writes every count and ``violations``, their sum: the verdict a reader
    /// of `--json` looks for. (Nothing reads a report back.)
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(operations, forKey: .operations)
        try container.encode(seed, forKey: .seed)
        try container.encode(threads, forKey: .threads)
        try container.encode(reentrantRelease, forKey: .reentrantRelease)
        try container.encode(violations, forKey: .violations)
        try container.encode(requests, forKey: .requests)
        try container.encode(leakedTasks, forKey: .leakedTasks)
        try container.encode(loadsActiveAtIdle, forKey: .loadsActiveAtIdle)
        try container.encode(stuckPrefetches, forKey: .stuckPrefetches)
        try container.encode(loader, forKey: .loader)
        try container.encode(fetcher, forKey: .fetcher)
        try container.encode(operationCounts, forKey: .operationCounts)
        try container.encode(checkpoints, forKey: .checkpoints)
        try container.encode(elapsedSeconds, forKey: .elapsedSeconds)
        try container.encode(operationsPerSecond, forKey: .operationsPerSecond)
    }
}
