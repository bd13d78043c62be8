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
    func result(statistics: FetchStatistics, requests: Int, receivedBytes: Int) throws -> StrategyResult {
        let sorted = timesToContent.sorted()
        func percentile(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
            return milliseconds(sorted[min(max(rank, 0), sorted.count - 1)])
        }
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
        let fields = ReplayResultFields(
            name: strategy.rawValue,
            blankRatio: visibleCellFrames == 0 ? 0 : Double(blankCellFrames) / Double(visibleCellFrames),
            blankCellFrames: blankCellFrames,
            visibleCellFrames: visibleCellFrames,
            ttcP50Ms: percentile(0.5),
            ttcP95Ms: percentile(0.95),
            ttcP99Ms: percentile(0.99),
            ttcMaxMs: sorted.last.map(milliseconds) ?? 0,
            requests: requests,
            cancellations: statistics.loadsCancelled,
            completedLoads: completedKeys.count,
            wastedLoads: wastedLoads,
            wasteRatio: completedKeys.isEmpty ? 0 : Double(wastedLoads) / Double(completedKeys.count),
            wastedBytes: wastedBytes,
            byteWasteRatio: completedBytes == 0 ? 0 : Double(wastedBytes) / Double(completedBytes),
            bytes: receivedBytes,
            peakCacheBytes: cacheBytes,
            blankCellFramesPerSecond: blankCellFramesPerSecond,
            bottomWaitMs: milliseconds(bottomWait)
        )
        return try fields.strategyResult()
    }

    func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
    }
}

/// ``StrategyResult``'s fields, to build one outside the simulator's module.
///
/// `StrategyResult` has no public initializer; its `Codable` form is public
/// and is the report's JSON, so a value with the same coding keys converts
/// through it. Should `StrategyResult` gain a field, the conversion fails
/// with a decoding error naming it rather than printing a partial report.
struct ReplayResultFields: Codable {
    var name: String
    var blankRatio: Double
    var blankCellFrames: Int
    var visibleCellFrames: Int
    var ttcP50Ms: Double
    var ttcP95Ms: Double
    var ttcP99Ms: Double
    var ttcMaxMs: Double
    var requests: Int
    var cancellations: Int
    var completedLoads: Int
    var wastedLoads: Int
    var wasteRatio: Double
    var wastedBytes: Int
    var byteWasteRatio: Double
    var bytes: Int
    var peakCacheBytes: Int
    var blankCellFramesPerSecond: [Int]
    var bottomWaitMs: Double

    func strategyResult() throws -> StrategyResult {
        try JSONDecoder().decode(StrategyResult.self, from: JSONEncoder().encode(self))
    }
}
