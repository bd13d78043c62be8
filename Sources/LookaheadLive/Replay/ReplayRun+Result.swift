import Foundation
import Lookahead
import LookaheadSimulation

extension ReplayRun {
    /// Closes the appearances still blank at the end of the run (counted
    /// until the last frame, as the simulator does) and takes note of every
    /// load whose value reached the cache, seen on screen or not.
    func finish() {
        let end = frameDuration * (frameCount - 1)
        for (_, entered) in pendingAppearances.sorted(by: { $0.key < $1.key }) {
            timesToContent.append(end - entered)
        }
        pendingAppearances.removeAll()
        switch keys.kind {
        case .item:
            for key in 0..<itemCount where !isCompleted.contains(key) && isCached(key) { markReady(key: key) }
        case .pageNumber, .pageOffset:
            for key in outstandingPages.union(unconfirmed).sorted() where isCached(key) { markReady(key: key) }
        }
    }

    /// The run's metrics, defined as the simulator defines them (see ``StrategyResult``).
    ///
    /// - Parameters:
    ///   - statistics: the fetcher's counters at the end of the last frame.
    ///   - requests: GETs sent by then.
    ///   - receivedBytes: response bytes received by then.
    func result(statistics: FetchStatistics, requests: Int, receivedBytes: Int) -> StrategyResult {
        var wastedLoads = 0
        var wastedBytes = 0
        var completedBytes = 0
        for key in completedKeys {
            let size = fetcher.fetchedData(for: key)?.bytes ?? bytes(ofKey: key)
            completedBytes += size
            if !keys.items(ofKey: key).contains(where: { everVisible[$0] }) {
                wastedLoads += 1
                wastedBytes += size
            }
        }
        return StrategyResult(
            name: strategy.rawValue, blankCellFrames: blankCellFrames, visibleCellFrames: visibleCellFrames,
            timesToContent: timesToContent, requests: requests, cancellations: statistics.loadsCancelled,
            completedLoads: completedKeys.count, wastedLoads: wastedLoads, wastedBytes: wastedBytes,
            completedBytes: completedBytes, bytes: receivedBytes, peakCacheBytes: cacheBytes,
            blankCellFramesPerSecond: blankCellFramesPerSecond, bottomWait: bottomWait)
    }
}
