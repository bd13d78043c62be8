public import Lookahead

/// What `EngineBenchmark.run()` measured: one row per workload, the counts that
/// say whether the two fetchers did the same work, and the process's peak memory.
///
/// Its `Codable` form is the `--json` output of `lookahead bench engine`.
public struct EngineBenchmarkReport: Sendable, Codable {
    /// One workload's wall-clock time on each fetcher.
    public struct Result: Sendable, Codable {
        public var name: String
        /// Seconds on `SampleAsyncFetcher`.
        public var baseline: Double
        /// Seconds on `Lookahead.AsyncFetcher`.
        public var lookahead: Double
        /// `baseline / lookahead`: above 1 means Lookahead is faster.
        public var ratio: Double

        public init(name: String, baseline: Double, lookahead: Double) {
            self.name = name
            self.baseline = baseline
            self.lookahead = lookahead
            ratio = lookahead > 0 ? baseline / lookahead : 0
        }
    }

    /// What one fetcher did during the workloads.
    public struct Counts: Sendable, Codable {
        /// mixed: calls that passed a completion handler.
        public var mixedCompletionsRequested = 0
        /// mixed: completion handlers that were called by the time the fetcher was idle.
        public var mixedCompletionsCalled = 0
        /// mixed: loads that reached the load closure.
        public var mixedLoadsStarted = 0
        /// mixed: seconds until the last call returned (the rest of the time is spent waiting until idle).
        public var mixedIssueSeconds = 0.0
        /// fetchedData: `fetchedData(for:)` calls per second (median round).
        public var fetchedDataHitsPerSecond = 0.0
        /// fetchedData: calls over all rounds that found nothing (0 when the cache holds the key space).
        public var fetchedDataMisses = 0
        /// fetch-cancel: loads that reached the load closure.
        public var fetchCancelLoadsStarted = 0
        /// fetch-cancel: seconds until the last call returned.
        public var fetchCancelIssueSeconds = 0.0
        /// fetch-cancel: loads that ran to their end although their key had been cancelled.
        public var fetchCancelCompletedAfterCancel = 0
        /// mixed: the fetcher's own counters (Lookahead only; absent from the JSON for the baseline).
        public var mixedStatistics: FetchStatistics?
        /// fetch-cancel: the fetcher's own counters (Lookahead only).
        public var fetchCancelStatistics: FetchStatistics?
        /// The peak resident set size of the process(es) that ran this fetcher, in bytes.
        public var peakRSSBytes = 0

        /// Takes every figure `other` measured (workloads touch disjoint fields).
        mutating func absorb(_ other: Counts) {
            let empty = Counts()
            if other.mixedCompletionsRequested != empty.mixedCompletionsRequested {
                mixedCompletionsRequested = other.mixedCompletionsRequested
                mixedCompletionsCalled = other.mixedCompletionsCalled
                mixedLoadsStarted = other.mixedLoadsStarted
                mixedIssueSeconds = other.mixedIssueSeconds
                mixedStatistics = other.mixedStatistics
            }
            if other.fetchedDataHitsPerSecond != empty.fetchedDataHitsPerSecond {
                fetchedDataHitsPerSecond = other.fetchedDataHitsPerSecond
                fetchedDataMisses = other.fetchedDataMisses
            }
            if other.fetchCancelIssueSeconds != empty.fetchCancelIssueSeconds {
                fetchCancelLoadsStarted = other.fetchCancelLoadsStarted
                fetchCancelIssueSeconds = other.fetchCancelIssueSeconds
                fetchCancelCompletedAfterCancel = other.fetchCancelCompletedAfterCancel
                fetchCancelStatistics = other.fetchCancelStatistics
            }
            peakRSSBytes = max(peakRSSBytes, other.peakRSSBytes)
        }

        public init() {}
    }

    /// Baseline and Lookahead counts side by side.
    public struct CountsBySide: Sendable, Codable {
        public var baseline = Counts()
        public var lookahead = Counts()

        public init() {}
    }

    /// In the order mixed, fetchedData, fetch-cancel.
    public var results: [Result] = []
    public var counts = CountsBySide()
    /// The largest peak resident set size of the processes that ran, in bytes
    /// (0 when it cannot be read).
    public var peakRSSBytes = 0

    public init() {}

    /// Adds what a report of the same seed measured on other workloads or the
    /// other side: rows of the same workload are combined side by side.
    public mutating func merge(_ other: EngineBenchmarkReport) {
        for row in other.results {
            if let index = results.firstIndex(where: { $0.name == row.name }) {
                let baseline = results[index].baseline > 0 ? results[index].baseline : row.baseline
                let lookahead = results[index].lookahead > 0 ? results[index].lookahead : row.lookahead
                results[index] = Result(name: row.name, baseline: baseline, lookahead: lookahead)
            } else {
                results.append(row)
            }
        }
        counts.baseline.absorb(other.counts.baseline)
        counts.lookahead.absorb(other.counts.lookahead)
        peakRSSBytes = max(peakRSSBytes, other.peakRSSBytes)
    }
}
