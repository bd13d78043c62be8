// The headless table view as a coordinator's layout source, as
// `LookaheadUIKit` makes a `UITableView` one.

public import Lookahead

extension TableView: PrefetchLayoutSource {
    /// The number of rows in `section` (``numberOfRows(inSection:)``).
    public func numberOfItems(inSection section: Int) -> Int {
        numberOfRows(inSection: section)
    }

    /// The rows whose frames intersect `rect`.
    ///
    /// - Complexity: O(log n + k) for k rows.
    public func itemFrames(in rect: Rect) -> [ItemFrame] {
        let layout = engine.currentLayout
        return layout.itemPaths(in: rect).map { ItemFrame(path: $0, frame: layout.frame(at: $0)) }
    }
}
