/// The view updates that take a list from one ``PagedListSnapshot`` to the
/// next without losing the scroll position: the pure decision of
/// `PagedDataSource`.
///
/// Rows are matched by their position in the server's list (the snapshots'
/// `origin`), not by comparing whole lists:
/// - with placeholders, positions do not move, so a page landing only
///   *reloads* the rows that turned from placeholders into items;
/// - without them, a page appended *inserts* rows at the end, a page dropped
///   by `maxSize` *deletes* rows, a prepended page inserts rows at the start;
/// - a first load or refresh that lands *reloads the data*: the list was
///   replaced, and nothing else ever does.
///
/// Reloads are computed only for the rows the caller says are visible:
/// elsewhere there is no cell to reconfigure, and the next `cellForItemAt`
/// reads the new snapshot anyway. That keeps an update O(visible + changed
/// rows) however long the list.
public enum PagedListUpdate: Hashable, Sendable {
    /// Nothing the view shows changed.
    case none
    /// The list was replaced (a first load or a refresh landed): reload everything.
    case reloadData
    /// Rows to delete (indices before the update), insert (indices after it)
    /// and reload (visible rows, indices before the update), in one batch.
    case batch(deletes: [Int], inserts: [Int], reloads: [Int])

    /// The update from `old` to `new`.
    ///
    /// - Parameters:
    ///   - old: the snapshot the view shows now.
    ///   - new: the snapshot to show.
    ///   - visibleRows: the rows of `old` that have cells now.
    /// - Complexity: O(visible + inserted + deleted rows).
    public static func between<Item>(
        _ old: PagedListSnapshot<Item>, _ new: PagedListSnapshot<Item>, visibleRows: some Sequence<Int>
    ) -> PagedListUpdate {
        if old.refreshState == .loading, new.refreshState != .loading { return .reloadData }
        // Old row i and new row i + shift stand for the same position.
        let shift = old.origin - new.origin
        let lower = max(0, -shift)
        let upper = min(old.count, new.count - shift)
        guard lower < upper else {
            // No position in common: every row goes.
            if old.count == 0, new.count == 0 { return .none }
            return .batch(deletes: Array(0..<old.count), inserts: Array(0..<new.count), reloads: [])
        }
        let deletes = Array(0..<lower) + Array(upper..<old.count)
        let inserts = Array(0..<(lower + shift)) + Array((upper + shift)..<new.count)
        var reloads: [Int] = []
        for row in Set(visibleRows).sorted() where (lower..<upper).contains(row) {
            if old.row(at: row) != new.row(at: row + shift) { reloads.append(row) }
        }
        if deletes.isEmpty, inserts.isEmpty, reloads.isEmpty { return .none }
        return .batch(deletes: deletes, inserts: inserts, reloads: reloads)
    }
}
