#if Tools
import Logging
import Lookahead
import LookaheadSimulation

// One strategy's run in a real replay: the simulator's StrategyDriver, played
// on a real clock, with what finished between frames handed to it.

/// One strategy's real-time replay: the simulator's ``StrategyDriver`` over
/// a ``ReplayStrategyLoader``, played frame by frame on a real clock.
///
/// Completions are collected at the start of each frame (as an app's main
/// thread sees them between frames); the time-to-content of an appearance
/// uses the instant the response actually ended. A value counts as arrived
/// once it is in the fetcher's cache (what `cellForItemAt` reads); a page,
/// loaded outside the fetcher as the ``Pager`` loads it, when its load returns.
/// Timed events — a page's retry, the `swiftui` window's arranged settle —
/// are handed over at the first frame at or after their time, with their
/// own time (the simulator handles them between frames, at their time).
///
/// Not thread-safe: one task runs it from start to end.
final class ReplayRun {
    let loader: ReplayLoader
    let logger: Logger
    var driver: StrategyDriver<ReplayStrategyLoader>

    /// Completions whose value was not in the cache yet when collected.
    var unconfirmed: Set<Int> = []
    /// The body size of each page loaded outside the fetcher.
    var pageBytes: [Int: Int] = [:]
    var lateFrames = 0
    var maxLateness = Duration.zero

    var strategy: SimulationStrategy { driver.strategy }
    var frameCount: Int { driver.frameCount }
    var keys: LoadKeys { driver.metrics.keys }

    init(
        scenario: SimulationScenario, strategy: SimulationStrategy, fetcher: ReplayStrategyLoader.Fetcher,
        loader: ReplayLoader, logger: Logger
    ) {
        self.loader = loader
        self.logger = logger
        driver = StrategyDriver(scenario: scenario, strategy: strategy) { _ in
            ReplayStrategyLoader(
                fetcher: fetcher, loader: loader, strategy: strategy, maxConcurrentLoads: scenario.maxConcurrentLoads)
        }
    }

    // MARK: Running

    /// Plays every frame at its deadline on the replay's clock.
    ///
    /// A frame whose deadline has passed runs at once and is counted at its
    /// scheduled time (never skipped); how late it started is recorded.
    ///
    /// - Parameters:
    ///   - elapsed: the time since the run's origin.
    ///   - sleep: sleeps until the given time since the origin.
    ///   - progress: called after each frame with the frame's index.
    func play(
        elapsed: () -> Duration, sleep: (Duration) async throws -> Void, progress: (Int) -> Void
    ) async throws {
        driver.begin()
        for frame in 0..<frameCount {
            let time = driver.time(ofFrame: frame)
            try await sleep(time)
            let lateness = elapsed() - time
            maxLateness = max(maxLateness, lateness)
            if lateness > driver.frameDuration / 2 { lateFrames += 1 }
            collectEvents(at: time)
            driver.showFrame(frame, at: time)
            progress(frame)
        }
        collectEvents(at: driver.time(ofFrame: frameCount - 1))
    }

    /// What the simulator's event loop does between frames: hands finished
    /// loads, failed pages, due retries and due window settles to the driver.
    func collectEvents(at time: Duration) {
        for completion in loader.takeCompletions() {
            driver.loadFinished(key: completion.key, duration: completion.duration)
            if keys.kind == .pageOffset {
                driver.loader.pageTasks[completion.key] = nil
                pageBytes[completion.key] = completion.bytes
                driver.dataArrived(key: completion.key, arrival: completion.end, at: time)
            } else {
                unconfirmed.insert(completion.key)
            }
        }
        // A worker caches the value right after its load returns: one not
        // there yet is looked for again next frame.
        for key in unconfirmed.sorted() where driver.loader.isCached(key) {
            unconfirmed.remove(key)
            driver.loader.outstandingPages.remove(key)
            arrived(key, at: time)
        }
        for key in driver.loader.outstandingPages.sorted() where driver.loader.isCached(key) {
            driver.loader.outstandingPages.remove(key)
            arrived(key, at: time)
        }
        for failure in loader.takePageFailures() {
            driver.loader.pageTasks[failure.key] = nil
            driver.pageFailed(key: failure.key, isTransient: failure.isTransient, at: time)
        }
        for retry in driver.loader.takeDueRetries(at: time) {
            driver.pageRetryDue(retry.request, at: retry.time)
        }
    }

    func arrived(_ key: Int, at time: Duration) {
        guard !driver.metrics.hasArrived(key) else { return }
        driver.dataArrived(key: key, arrival: loader.arrival(ofKey: key), at: time)
    }

    // MARK: Ending

    /// Closes the appearances still blank at the end of the run (counted
    /// until the last frame, as the simulator does) and takes note of every
    /// load whose value reached the cache, seen on screen or not.
    func finish() {
        driver.finish()
        switch keys.kind {
        case .item:
            for key in 0..<driver.itemCount where !driver.metrics.hasArrived(key) && driver.loader.isCached(key) {
                driver.markReadyAtEnd(key: key)
            }
        case .pageNumber:
            for key in driver.loader.outstandingPages.union(unconfirmed).sorted() where driver.loader.isCached(key) {
                driver.markReadyAtEnd(key: key)
            }
        case .pageOffset:
            break
        }
    }

    /// The run's metrics, defined as the simulator defines them (see ``StrategyResult``).
    ///
    /// - Parameters:
    ///   - statistics: the fetcher's counters at the end of the last frame.
    ///   - requests: GETs sent by then.
    ///   - receivedBytes: response bytes received by then.
    func result(statistics: FetchStatistics, requests: Int, receivedBytes: Int) -> StrategyResult {
        let metrics = driver.metrics
        let fetcher = driver.loader.fetcher
        return metrics.result(
            name: strategy.rawValue, requests: requests, cancellations: statistics.loadsCancelled,
            bytes: receivedBytes
        ) { key in
            pageBytes[key] ?? fetcher.fetchedData(for: key)?.bytes ?? metrics.bytes(ofKey: key)
        }
    }

    /// Withdraws everything the run asked for, so that running loads stop,
    /// and waits for the page loads to end.
    func withdrawEverything() async {
        for task in driver.loader.withdrawEverything(itemCount: driver.itemCount) { await task.value }
    }
}
#endif
