// The row-by-row bookkeeping of `NestedPrefetchPlanner`: what one row wants,
// and the planner of a carousel being swiped.

extension NestedPrefetchPlanner {
    /// The items one row wants: a range, or a carousel planner's sorted items.
    struct RowWant: Sendable {
        var row: Int
        var range: Range<Int>
        /// Ascending; used instead of `range` when set.
        var items: [Int]?

        init(row: Int, range: Range<Int>) {
            self.row = row
            self.range = range
            items = nil
        }

        init(row: Int, items: [Int]) {
            self.row = row
            range = 0..<0
            self.items = items
        }

        /// - Complexity: O(1) for a range, O(log items) otherwise.
        func contains(_ item: Int) -> Bool {
            guard let items else { return range.contains(item) }
            var low = 0
            var high = items.count
            while low < high {
                let middle = (low + high) / 2
                if items[middle] < item { low = middle + 1 } else { high = middle }
            }
            return low < items.count && items[low] == item
        }

        /// Calls `body` with each item, ascending.
        func forEach(_ body: (Int) -> Void) {
            if let items {
                for item in items { body(item) }
            } else {
                for item in range { body(item) }
            }
        }
    }

    /// A carousel being swiped: its planner along its axis, and what that
    /// planner holds, sorted, as of its last frame.
    struct Carousel: Sendable {
        var planner: PrefetchPlanner
        var lastFrame: ScrollFrame?
        var items: [Int] = []

        init(planner: PrefetchPlanner) {
            self.planner = planner
        }

        /// Plans `frame`, unless the carousel rests where it rested (see
        /// `NestedPrefetchPlanner`), and returns what the planner holds.
        mutating func plan(_ frame: ScrollFrame, loadQueue: LoadQueueState, skipsRest: Bool) -> [Int] {
            if skipsRest, NestedPrefetchPlanner.rests(frame, after: lastFrame) { return items }
            lastFrame = frame
            _ = planner.update(frame, loadQueue: loadQueue)
            // One section: the planner's ascending paths are ascending items.
            items.removeAll(keepingCapacity: true)
            for path in planner.prefetchedPaths { items.append(path.item) }
            return items
        }
    }

    /// The want of `row` in `wants`, ascending by row.
    ///
    /// - Complexity: O(log wants).
    static func want(ofRow row: Int, in wants: [RowWant]) -> RowWant? {
        var low = 0
        var high = wants.count
        while low < high {
            let middle = (low + high) / 2
            if wants[middle].row < row { low = middle + 1 } else { high = middle }
        }
        return low < wants.count && wants[low].row == row ? wants[low] : nil
    }
}
