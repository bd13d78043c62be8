// `lookahead torture fetcher`: a seeded random mix of operations over a real
// AsyncFetcher and its Prefetchers, from several threads at once, checked
// against a reference model at checkpoints and after the fetcher is released.

import Foundation
import Lookahead

/// Runs a seeded random operation mix over a real ``AsyncFetcher`` and
/// several ``Prefetcher``s and reports every violation of the fetcher's
/// contract that a reference model (``FetchLedger``) detects.
///
/// The run is a sequence of rounds. In each, `threads` threads perform
/// `operationsPerCheckpoint` operations between them, each drawing from its
/// own seeded generator. Then comes a checkpoint: the loads held by the
/// loader are let go, every `value(for:)` task is awaited, the fetcher is
/// awaited until idle, and then
/// - every request made so far must have ended (else: lost);
/// - no loader call may still be running (else: active at idle) — the fetcher
///   counts a load as running until its loader call has returned, so at idle
///   none may be, whatever the timing;
/// - a prefetcher that is not paused has no key outstanding (else: stuck):
///   each of its keys was loaded, failed, or withdrawn.
///
/// At the end every prefetcher, observation and the fetcher itself are
/// released; the fetcher, each of them, and a sentinel object captured by the
/// loader must then be deallocated, and no loader call running, once the
/// fetcher's worker tasks had time to end (polled for up to ten seconds).
///
/// The interleaving of the threads is up to the machine, so a run with a seed
/// is not repeatable to the instruction; what the seed fixes is each thread's
/// operation sequence and each loader call's outcome.
public struct FetcherTorture: Sendable {
    /// The run's parameters.
    public let configuration: FetcherTortureConfiguration
    /// Wraps the real fetcher for display requests; tests put faults here.
    let makeTarget: @Sendable (AsyncFetcher<Int, TortureValue>) -> any FetchRequestTarget
    /// How long the end of a run waits for released objects to go away.
    let releaseTimeLimit: Duration

    /// Creates a run, after checking its configuration.
    public init(configuration: FetcherTortureConfiguration) throws(FetcherTortureConfigurationError) {
        try self.init(configuration: configuration, makeTarget: { PassThroughTarget(fetcher: $0) })
    }

    init(
        configuration: FetcherTortureConfiguration,
        releaseTimeLimit: Duration = .seconds(10),
        makeTarget: @escaping @Sendable (AsyncFetcher<Int, TortureValue>) -> any FetchRequestTarget
    ) throws(FetcherTortureConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        self.releaseTimeLimit = releaseTimeLimit
        self.makeTarget = makeTarget
    }

    /// Performs the run.
    ///
    /// - Parameter progress: called after each checkpoint with the operations
    ///   done so far.
    public func run(progress: (@Sendable (Int) -> Void)? = nil) async -> FetcherTortureReport {
        let start = ContinuousClock.now
        let ledger = FetchLedger()
        let loader = TortureLoader(seed: configuration.seed, hold: LoadHold())
        var report = FetcherTortureReport()
        var operationCounts = Array(repeating: 0, count: FetcherTortureOperation.allCases.count)
        weak var weakFetcher: AsyncFetcher<Int, TortureValue>?
        weak var weakSentinel: TortureSentinel?
        var leftOver = FetcherTortureWorld.Released()
        do {
            let sentinel = TortureSentinel()
            weakSentinel = sentinel
            let fetcher = AsyncFetcher<Int, TortureValue>(
                maxConcurrentLoads: 4,
                memoryCache: MemoryCache(countLimit: configuration.keyCount / 2),
                clock: TortureClock(),
                retryPolicy: RetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(1))
            ) { [sentinel] key in
                _ = sentinel
                return try await loader.load(key)
            }
            weakFetcher = fetcher
            let world = FetcherTortureWorld(
                configuration: configuration, fetcher: fetcher, target: makeTarget(fetcher), ledger: ledger,
                loader: loader)
            var done = 0
            var round: UInt64 = 0
            while done < configuration.operations {
                let count = min(configuration.operationsPerCheckpoint, configuration.operations - done)
                let counts = await performRound(round, operations: count, on: world)
                for (index, value) in counts.enumerated() { operationCounts[index] += value }
                let findings = await checkpoint(world)
                report.loadsActiveAtIdle += findings.activeLoads
                report.stuckPrefetches += findings.stuckPrefetches
                report.checkpoints += 1
                done += count
                round += 1
                progress?(done)
            }
            report.fetcher = fetcher.statistics
            world.releaseAll()
            leftOver = world.released.withLock { $0 }
        }
        // Everything is released: the fetcher shuts down, its workers exit,
        // and the loader (with the sentinel) goes with its core.
        let deadline = ContinuousClock.now.advanced(by: releaseTimeLimit)
        func leaks() -> Int {
            (weakFetcher == nil ? 0 : 1) + (weakSentinel == nil ? 0 : 1) + leftOver.aliveCount
                + loader.counts.active
        }
        while leaks() > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
        report.leakedTasks = leaks()

        report.operations = configuration.operations
        report.seed = configuration.seed
        report.threads = configuration.threads
        report.reentrantRelease = configuration.includesReentrantRelease
        report.requests = ledger.counts
        report.loader = loader.counts
        for operation in FetcherTortureOperation.allCases {
            report.operationCounts[operation.name] = operationCounts[operation.rawValue]
        }
        let elapsed = start.duration(to: .now)
        report.elapsedSeconds = elapsed.seconds
        report.operationsPerSecond =
            report.elapsedSeconds > 0 ? Double(configuration.operations) / report.elapsedSeconds : 0
        return report
    }

    /// Performs `operations` operations on `threads` threads at once; returns
    /// how many of each kind.
    private func performRound(_ round: UInt64, operations: Int, on world: FetcherTortureWorld) async -> [Int] {
        let threads = min(configuration.threads, operations)
        let seed = configuration.seed
        let results = LockedValue(Array(repeating: 0, count: FetcherTortureOperation.allCases.count))
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let remaining = LockedValue(threads)
            for thread in 0..<threads {
                let share = operations / threads + (thread < operations % threads ? 1 : 0)
                let worker = Thread {
                    var random = TortureRandom(seed: seed, stream: round, substream: UInt64(thread))
                    var counts = Array(repeating: 0, count: FetcherTortureOperation.allCases.count)
                    for _ in 0..<share {
                        let operation = FetcherTortureOperation.random(using: &random)
                        counts[operation.rawValue] += 1
                        world.perform(operation, using: &random)
                    }
                    results.withLock { totals in
                        for (index, value) in counts.enumerated() { totals[index] += value }
                    }
                    let isLast = remaining.withLock { remaining in
                        remaining -= 1
                        return remaining == 0
                    }
                    if isLast { continuation.resume() }
                }
                worker.start()
            }
        }
        return results.withLock { $0 }
    }

    /// Lets every load finish, waits until the fetcher is idle and checks it;
    /// returns the loader calls still running, and the keys of prefetchers
    /// not paused still outstanding, at idle.
    private func checkpoint(_ world: FetcherTortureWorld) async -> (activeLoads: Int, stuckPrefetches: Int) {
        world.loader.hold.open()
        for task in world.takeValueTasks() { await task.value }
        await world.fetcher.waitUntilIdle()
        let active = world.loader.counts.active
        let prefetchers = world.prefetchers.withLock { $0.compactMap { $0?.object } }
        let stuck = prefetchers.reduce(0) { $0 + ($1.isPaused ? 0 : $1.outstandingCount) }
        world.ledger.settle()
        world.loader.hold.close()
        world.released.withLock { $0.removeDeallocated() }
        return (active, stuck)
    }
}

/// An object only the loader holds: alive exactly as long as the loader is.
final class TortureSentinel: Sendable {}
