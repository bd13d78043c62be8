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
    /// The process's peak resident set size, in bytes (0 when it cannot be read).
    public var peakRSSBytes = 0

    public init() {}
}
