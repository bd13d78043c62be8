// The one metrics accumulator of a strategy run: what the simulator and the
// real replay count, frame by frame and load by load, with the definitions of
// ``StrategyResult``.

/// Counts what a user would have seen during one strategy run: visible and
/// blank cell-frames (in total and per second), times to content, completed
/// and wasted loads, the cache's peak and the wait at the bottom of a paged
/// list.
///
/// Fed by ``StrategyDriver`` — `showFrame` for what is on screen, `markReady`
/// for the data that arrives — so the simulator and the real replay measure
/// with the same code; the ratios and percentiles are derived once, in
/// ``StrategyResult``.
package struct RunMetrics {
    package let keys: LoadKeys
    /// The payload size of each item.
    let itemBytes: (Int) -> Int

    /// Whether each item's data is ready.
    package private(set) var ready: [Bool]
    /// Whether each item was visible at least once.
    package private(set) var everVisible: [Bool]
    /// Items on screen and still blank, with when they appeared.
    var pendingAppearances: [Int: Duration] = [:]
    var timesToContent: [Duration] = []
    /// Keys whose data arrived, in that order, each once.
    package private(set) var completedKeys: [Int] = []
    var isCompleted: Set<Int> = []
    /// When each item's data arrived, where that is known (for the HTML report's replay).
    package private(set) var readyTimes: [Int: Duration] = [:]
    var cacheBytes = 0
    var peakCacheBytes = 0
    var visibleCellFrames = 0
    var blankCellFrames = 0
    var blankCellFramesPerSecond: [Int]
    var bottomWait = Duration.zero
    /// The items within ``reachAtEnd`` screens of the last frame, once
    /// ``finish(at:reach:)`` has been told them.
    var withinReachAtEnd: Set<Int> = []

    /// How many screens around the last frame a wasted load's item may be to
    /// count in ``StrategyResult/wastedLoadsAtEnd``: more than any window the
    /// strategies hold (texture's 2.5 ahead and 1.5 behind, adaptive's cap of
    /// 2.5), the same for every strategy.
    package static let reachAtEnd = 3.0

    /// Creates an accumulator for a run of `duration` over the items `keys` covers.
    ///
    /// - Complexity: O(items + seconds).
    package init(keys: LoadKeys, duration: Duration, itemBytes: @escaping (Int) -> Int) {
        self.keys = keys
        self.itemBytes = itemBytes
        ready = Array(repeating: false, count: keys.itemCount)
        everVisible = Array(repeating: false, count: keys.itemCount)
        // The frame at exactly the end of the trace counts in the last whole second.
        let seconds = max(1, Int((duration / .seconds(1)).rounded(.up)))
        blankCellFramesPerSecond = Array(repeating: 0, count: seconds)
    }

    /// Whether `key`'s data has arrived.
    package func hasArrived(_ key: Int) -> Bool { isCompleted.contains(key) }

    /// The bytes of every item `key` covers, as the network model sizes them.
    package func bytes(ofKey key: Int) -> Int {
        keys.items(ofKey: key).reduce(0) { $0 + itemBytes($1) }
    }

    /// Counts `item`, visible at `time` (`appeared`: not visible the frame before).
    ///
    /// - Complexity: O(1).
    mutating func countVisible(_ item: Int, isReady: Bool, appeared: Bool, at time: Duration) {
        visibleCellFrames += 1
        everVisible[item] = true
        if !isReady {
            blankCellFrames += 1
            blankCellFramesPerSecond[min(Int(time / .seconds(1)), blankCellFramesPerSecond.count - 1)] += 1
        }
        guard appeared else { return }
        if isReady {
            timesToContent.append(.zero)
        } else {
            pendingAppearances[item] = time
        }
    }

    /// `item` left the screen at `time`: an appearance that ends blank counts
    /// the time it was on screen.
    mutating func itemLeft(_ item: Int, at time: Duration) {
        if let entered = pendingAppearances.removeValue(forKey: item) {
            timesToContent.append(time - entered)
        }
    }

    /// The user looked at the end of the loaded list for one more frame.
    mutating func waitedAtBottom(for frameDuration: Duration) {
        bottomWait += frameDuration
    }

    /// Records that `key`'s data arrived at `arrival` (`nil`: not known, then
    /// an appearance waiting for it counts zero); a key already recorded is ignored.
    ///
    /// - Complexity: O(items the key covers).
    package mutating func markReady(key: Int, arrival: Duration?) {
        guard isCompleted.insert(key).inserted else { return }
        completedKeys.append(key)
        for item in keys.items(ofKey: key) where !ready[item] {
            ready[item] = true
            if let arrival { readyTimes[item] = arrival }
            cacheBytes += itemBytes(item)
            if let entered = pendingAppearances.removeValue(forKey: item) {
                timesToContent.append(max(.zero, (arrival ?? entered) - entered))
            }
        }
        peakCacheBytes = max(peakCacheBytes, cacheBytes)
    }

    /// Closes the appearances still blank at `end` (the last frame's time);
    /// `reach`: the items within ``reachAtEnd`` screens of that frame.
    mutating func finish(at end: Duration, reach: [Int] = []) {
        withinReachAtEnd = Set(reach)
        for (_, entered) in pendingAppearances.sorted(by: { $0.key < $1.key }) {
            timesToContent.append(end - entered)
        }
        pendingAppearances.removeAll()
    }

    /// The run's result.
    ///
    /// - Parameters:
    ///   - name: the strategy's name.
    ///   - requests: loads started (or GETs sent), retries included.
    ///   - cancellations: loads cancelled because nobody wanted them.
    ///   - bytes: bytes received, cancelled transfers included.
    ///   - completedBytes: the size of a completed key's data.
    /// - Complexity: O(completed loads × items a key covers).
    package func result(
        name: String, requests: Int, cancellations: Int, bytes: Int, completedBytes: (Int) -> Int
    ) -> StrategyResult {
        var wastedLoads = 0
        var wastedLoadsAtEnd = 0
        var wastedBytes = 0
        var totalCompletedBytes = 0
        for key in completedKeys {
            let size = completedBytes(key)
            totalCompletedBytes += size
            let items = keys.items(ofKey: key)
            if !items.contains(where: { everVisible[$0] }) {
                wastedLoads += 1
                wastedBytes += size
                if items.contains(where: withinReachAtEnd.contains) { wastedLoadsAtEnd += 1 }
            }
        }
        return StrategyResult(
            name: name, blankCellFrames: blankCellFrames, visibleCellFrames: visibleCellFrames,
            timesToContent: timesToContent, requests: requests, cancellations: cancellations,
            completedLoads: completedKeys.count, wastedLoads: wastedLoads, wastedLoadsAtEnd: wastedLoadsAtEnd,
            wastedBytes: wastedBytes,
            completedBytes: totalCompletedBytes, bytes: bytes, peakCacheBytes: peakCacheBytes,
            blankCellFramesPerSecond: blankCellFramesPerSecond, bottomWait: bottomWait)
    }
}
