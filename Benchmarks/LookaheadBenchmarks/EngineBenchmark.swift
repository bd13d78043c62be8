import Lookahead

/// Times `Lookahead.AsyncFetcher` against `SampleAsyncFetcher` (the design of
/// Apple's prefetching sample) on three seeded workloads, both fetchers seeing
/// exactly the same calls:
///
/// - **mixed**: 100k calls over 10k keys, 50% `fetchAsync` (half of them with a
///   completion), 25% `cancelFetch`, 25% `fetchedData`, loads that return at
///   once; timed until the fetcher is idle.
/// - **fetchedData**: 100k cache hits over 10k keys loaded beforehand (not
///   timed); the median of 10 rounds.
/// - **fetch-cancel**: 50k `fetchAsync`-then-`cancelFetch` pairs on distinct
///   keys (prefetch interest, no completion) with a 10 ms load; timed until the
///   fetcher is idle.
///
/// Figures mean something only in a release build.
public struct EngineBenchmark: Sendable {
    public static let defaultSeed: UInt64 = 0x5EED_F00D

    public var seed: UInt64

    let mixedCallCount = 100_000
    let mixedKeyCount = 10_000
    let fetchedDataKeyCount = 10_000
    let fetchedDataCallCount = 100_000
    let fetchedDataRounds = 10
    let fetchCancelPairCount = 50_000
    let fetchCancelLatency = Duration.milliseconds(10)

    public init(seed: UInt64 = defaultSeed) {
        self.seed = seed
    }

    /// The workloads, in the order they run.
    public enum Workload: String, CaseIterable, Sendable {
        case mixed
        case fetchedData
        case fetchCancel = "fetch-cancel"
    }

    /// The two fetchers measured.
    public enum Side: String, CaseIterable, Sendable {
        case baseline
        case lookahead
    }

    /// Runs the given workloads on the given fetchers (all by default),
    /// baseline first, reporting each step through `progress`. A fetcher left
    /// out gets 0 s in the results and empty counts.
    ///
    /// Running both sides in one process lets the first bill the second: the
    /// baseline's heap churn left glibc's allocator in a state that made
    /// Lookahead's mixed run 3× slower than in a fresh process. The command
    /// line therefore runs each (workload, side) in a process of its own and
    /// merges the reports (`EngineBenchmarkReport.merge`).
    public func run(
        _ workloads: Set<Workload> = Set(Workload.allCases),
        sides: Set<Side> = Set(Side.allCases),
        progress: @Sendable (String) -> Void
    ) async -> EngineBenchmarkReport {
        var report = EngineBenchmarkReport()
        let runsBaseline = sides.contains(.baseline)
        let runsLookahead = sides.contains(.lookahead)

        if workloads.contains(.mixed) {
            let calls = mixedCalls()
            var baseline: MixedRun?
            var lookahead: MixedRun?
            if runsBaseline {
                progress("running mixed (baseline)…")
                baseline = await runMixed(SampleFetcherUnderTest(loadLatency: .zero), calls: calls)
            }
            if runsLookahead {
                progress("running mixed (Lookahead)…")
                lookahead = await runMixed(
                    LookaheadFetcherUnderTest(loadLatency: .zero, keyCount: mixedKeyCount), calls: calls)
            }
            report.results.append(
                .init(
                    name: Workload.mixed.rawValue, baseline: baseline?.elapsed.seconds ?? 0,
                    lookahead: lookahead?.elapsed.seconds ?? 0))
            baseline?.record(in: &report.counts.baseline)
            lookahead?.record(in: &report.counts.lookahead)
        }

        if workloads.contains(.fetchedData) {
            let keys = fetchedDataKeys()
            var baseline: FetchedDataRun?
            var lookahead: FetchedDataRun?
            if runsBaseline {
                progress("running fetchedData (baseline)…")
                baseline = await runFetchedData(SampleFetcherUnderTest(loadLatency: .zero), keys: keys)
            }
            if runsLookahead {
                progress("running fetchedData (Lookahead)…")
                lookahead = await runFetchedData(
                    LookaheadFetcherUnderTest(loadLatency: .zero, keyCount: fetchedDataKeyCount), keys: keys)
            }
            report.results.append(
                .init(
                    name: Workload.fetchedData.rawValue, baseline: baseline?.medianRound.seconds ?? 0,
                    lookahead: lookahead?.medianRound.seconds ?? 0))
            baseline?.record(in: &report.counts.baseline)
            lookahead?.record(in: &report.counts.lookahead)
        }

        if workloads.contains(.fetchCancel) {
            let pairs = fetchCancelKeys()
            var baseline: FetchCancelRun?
            var lookahead: FetchCancelRun?
            if runsBaseline {
                progress("running fetch-cancel (baseline)…")
                baseline = await runFetchCancel(
                    SampleFetcherUnderTest(loadLatency: fetchCancelLatency, tracksCancellations: true), keys: pairs)
            }
            if runsLookahead {
                progress("running fetch-cancel (Lookahead)…")
                lookahead = await runFetchCancel(
                    LookaheadFetcherUnderTest(
                        loadLatency: fetchCancelLatency, keyCount: fetchCancelPairCount, tracksCancellations: true),
                    keys: pairs)
            }
            report.results.append(
                .init(
                    name: Workload.fetchCancel.rawValue, baseline: baseline?.elapsed.seconds ?? 0,
                    lookahead: lookahead?.elapsed.seconds ?? 0))
            baseline?.record(in: &report.counts.baseline)
            lookahead?.record(in: &report.counts.lookahead)
        }

        let peak = peakResidentSetSize() ?? 0
        report.peakRSSBytes = peak
        if runsBaseline { report.counts.baseline.peakRSSBytes = peak }
        if runsLookahead { report.counts.lookahead.peakRSSBytes = peak }
        return report
    }
}

// MARK: - Call sequences (seeded, built before any timing)

extension EngineBenchmark {
    enum MixedCall {
        case fetch(Int)
        case fetchWithCompletion(Int)
        case cancel(Int)
        case fetchedData(Int)
    }

    /// Each workload draws from its own generator, so changing one leaves the others' sequences alone.
    private func generator(for workload: UInt64) -> SplitMix64 {
        SplitMix64(seed: seed ^ (workload &* 0x9E37_79B9_7F4A_7C15))
    }

    func mixedCalls() -> [MixedCall] {
        var generator = generator(for: 1)
        return (0..<mixedCallCount).map { _ in
            let kind = generator.next(upperBound: 8 as UInt64)
            let key = Int(generator.next(upperBound: UInt64(mixedKeyCount)))
            switch kind {
            case 0...1: return .fetch(key)
            case 2...3: return .fetchWithCompletion(key)
            case 4...5: return .cancel(key)
            default: return .fetchedData(key)
            }
        }
    }

    func fetchedDataKeys() -> [Int] {
        var generator = generator(for: 2)
        return (0..<fetchedDataCallCount).map { _ in
            Int(generator.next(upperBound: UInt64(fetchedDataKeyCount)))
        }
    }

    /// Distinct keys in a seeded order, so each load has exactly one cancel.
    func fetchCancelKeys() -> [Int] {
        var generator = generator(for: 3)
        return Array(0..<fetchCancelPairCount).shuffled(using: &generator)
    }
}

// MARK: - Workloads

extension EngineBenchmark {
    struct MixedRun {
        var elapsed: Duration
        var issued: Duration
        var completionsRequested: Int
        var completionsCalled: Int
        var loadsStarted: Int
        var statistics: FetchStatistics?

        func record(in counts: inout EngineBenchmarkReport.Counts) {
            counts.mixedCompletionsRequested = completionsRequested
            counts.mixedCompletionsCalled = completionsCalled
            counts.mixedLoadsStarted = loadsStarted
            counts.mixedIssueSeconds = issued.seconds
            counts.mixedStatistics = statistics
        }
    }

    func runMixed(_ fetcher: some FetcherUnderTest, calls: [MixedCall]) async -> MixedRun {
        let called = LockedValue(0)
        let completion: @Sendable () -> Void = { called.withLock { $0 += 1 } }
        var requested = 0
        var found = 0
        let clock = ContinuousClock()
        let start = clock.now
        for call in calls {
            switch call {
            case .fetch(let key):
                fetcher.fetch(key, completion: nil)
            case .fetchWithCompletion(let key):
                requested += 1
                fetcher.fetch(key, completion: completion)
            case .cancel(let key):
                fetcher.cancel(key)
            case .fetchedData(let key):
                if fetcher.fetchedData(for: key) != nil {
                    found += 1
                }
            }
        }
        let issued = start.duration(to: clock.now)
        await fetcher.waitUntilIdle()
        let elapsed = start.duration(to: clock.now)
        blackHole(found)
        return MixedRun(
            elapsed: elapsed, issued: issued, completionsRequested: requested,
            completionsCalled: called.withLock { $0 }, loadsStarted: fetcher.loadsStarted,
            statistics: fetcher.statistics)
    }

    struct FetchedDataRun {
        var medianRound: Duration
        var misses: Int
        var callsPerRound: Int

        func record(in counts: inout EngineBenchmarkReport.Counts) {
            counts.fetchedDataHitsPerSecond = Double(callsPerRound) / medianRound.seconds
            counts.fetchedDataMisses = misses
        }
    }

    func runFetchedData(_ fetcher: some FetcherUnderTest, keys: [Int]) async -> FetchedDataRun {
        for key in 0..<fetchedDataKeyCount {
            fetcher.fetch(key, completion: nil)
        }
        await fetcher.waitUntilIdle()

        let clock = ContinuousClock()
        var rounds: [Duration] = []
        var misses = 0
        var checksum = 0
        for _ in 0..<fetchedDataRounds {
            let start = clock.now
            for key in keys {
                if let payload = fetcher.fetchedData(for: key) {
                    checksum &+= payload.identifier
                } else {
                    misses += 1
                }
            }
            rounds.append(start.duration(to: clock.now))
        }
        blackHole(checksum)
        return FetchedDataRun(medianRound: rounds.sorted()[rounds.count / 2], misses: misses, callsPerRound: keys.count)
    }

    struct FetchCancelRun {
        var elapsed: Duration
        var issued: Duration
        var loadsStarted: Int
        var completedAfterCancel: Int
        var statistics: FetchStatistics?

        func record(in counts: inout EngineBenchmarkReport.Counts) {
            counts.fetchCancelLoadsStarted = loadsStarted
            counts.fetchCancelIssueSeconds = issued.seconds
            counts.fetchCancelCompletedAfterCancel = completedAfterCancel
            counts.fetchCancelStatistics = statistics
        }
    }

    func runFetchCancel(_ fetcher: some FetcherUnderTest, keys: [Int]) async -> FetchCancelRun {
        let clock = ContinuousClock()
        let start = clock.now
        for key in keys {
            fetcher.fetch(key, completion: nil)
            fetcher.cancel(key)
        }
        let issued = start.duration(to: clock.now)
        await fetcher.waitUntilIdle()
        let elapsed = start.duration(to: clock.now)
        return FetchCancelRun(
            elapsed: elapsed, issued: issued, loadsStarted: fetcher.loadsStarted,
            completedAfterCancel: fetcher.loadsCompletedAfterCancel, statistics: fetcher.statistics)
    }
}

/// Keeps the optimizer from dropping a loop whose result is otherwise unused.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
