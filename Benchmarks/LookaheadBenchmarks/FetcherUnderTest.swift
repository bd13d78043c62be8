/// What the workloads need from a fetcher, so that both fetchers run the very
/// same loops; the conformances are thin adapters.
import Lookahead

protocol FetcherUnderTest: Sendable {
    /// Asks for `key`; when `completion` is given, calls it once the fetcher
    /// reports back (with a value or, for Lookahead, an error).
    func fetch(_ key: Int, completion: (@Sendable () -> Void)?)
    func cancel(_ key: Int)
    func fetchedData(for key: Int) -> Payload?
    /// Returns when no load is queued or running and every completion has been called.
    func waitUntilIdle() async
    /// Loads that reached the load closure.
    var loadsStarted: Int { get }
    /// Loads that returned normally although `cancel(_:)` had been called for their key.
    var loadsCompletedAfterCancel: Int { get }
    /// The fetcher's own counters, when it keeps any (the baseline does not).
    var statistics: FetchStatistics? { get }
}
