// A coordinator for a SwiftUI list or grid: made with the fetcher alone, it
// plans over the rows the app lists by key — the keys, shape and width the
// SwiftUI modifier hands it each time the view is built — and learns where
// the list is from the scroll view's geometry (iOS 18) or from the rows
// SwiftUI makes (before). Portable; LookaheadSwiftUI only forwards.

extension PrefetchCoordinator {
    /// Creates a coordinator for a SwiftUI `ScrollView` of a `LazyVGrid`
    /// or `LazyVStack`: keep it in `@State`, hand it the items with
    /// `.lookaheadPrefetching(_:keys:geometry:)` on the scroll view, and
    /// show each row with `FetchedContent(key, in: coordinator)`.
    ///
    /// It keeps no copy of your data: the modifier gives it the keys, the
    /// shape and the width each time the view is built, and the layout is
    /// made again when any changes (a rotation, Split View, new items).
    ///
    /// - Parameters:
    ///   - fetcher: loads the items.
    ///   - policy: which items to hold prefetched; adaptive by default.
    public convenience init(fetcher: AsyncFetcher<Key, Value>, policy: PrefetchPolicy = .adaptive) {
        let rows = KeyedRows<Key>()
        self.init(fetcher: fetcher, layoutSource: rows, policy: policy) { [unowned rows] path in
            rows.key(at: path.item)
        }
    }

    /// The rows of a coordinator made for SwiftUI.
    package var rows: KeyedRows<Key>? { layoutSource as? KeyedRows<Key> }

    /// The view is built with `keys`, `geometry` and `width`: requests follow
    /// their keys if they moved, and the layout is made again if anything
    /// changed. What the SwiftUI modifier calls on every build.
    package func update(keys: [Key], geometry: ItemGeometry, width: Double) {
        guard let rows else { return }
        let change = rows.update(keys: keys, geometry: geometry, width: width)
        if change.keys {
            applyUpdates(to: [keys])
        } else if change.layout {
            invalidateLayout()
        }
    }

    /// Where the row of `key` is, if the list has it.
    package func path(of key: Key) -> ItemPath? {
        rows?.index(of: key).map { ItemPath(item: $0, section: 0) }
    }

    /// The row of `key` appeared (`isShown`) or disappeared at `time`: where
    /// the scroll view does not report its geometry, the rows SwiftUI makes
    /// tell where the list is, and the frame is planned as a report's.
    package func row(of key: Key, isShown: Bool, at time: Duration) {
        guard let rows, !rows.reportsScrollGeometry, let item = rows.index(of: key),
            let top = rows.row(item, isShown: isShown), rows.width > 0
        else { return }
        let height = rows.viewportHeight > 0 ? rows.viewportHeight : rows.width
        scrollViewDidScroll(
            contentOffset: Point(x: 0, y: top), viewportSize: Size(width: rows.width, height: height), at: time)
    }
}
