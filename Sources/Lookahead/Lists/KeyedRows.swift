// The rows of a SwiftUI list or grid as its coordinator knows them: the
// app's keys in order, handed each time the view is built, the shape the app
// gives SwiftUI and the width SwiftUI gives it — the layout built again
// whenever one of them changes, never a copy frozen when the view appeared.
// Portable: the SwiftUI glue only measures and forwards.

/// A SwiftUI list's rows: keys, shape and width, and the layout they make.
@MainActor
package final class KeyedRows<Key: Hashable & Sendable>: PrefetchLayoutSource {
    package private(set) var keys: [Key] = []
    private var index: [Key: Int] = [:]
    package private(set) var geometry = ItemGeometry.rows(height: 44)
    package private(set) var width = 0.0
    /// The height of the scroll view's visible area, as last measured.
    package var viewportHeight = 0.0
    private(set) var layout: any CollectionLayout = ListLayout(width: 1, rowHeight: 44, rowCount: 0)
    /// The rows SwiftUI has made (appeared, not yet disappeared): before
    /// iOS 18, where the scroll view tells nothing else, where the list is.
    private var appearance = RowAppearance()
    /// Whether the scroll view reports its own geometry (iOS 18): rows
    /// appearing then say nothing the reports do not.
    package var reportsScrollGeometry = false

    package init() {}

    /// What an update changed.
    package struct Change: Equatable {
        /// The keys changed: requests follow theirs (`applyUpdates(to:)`).
        package var keys = false
        /// The frames changed with the same keys (a new width or shape).
        package var layout = false
    }

    /// Takes what the view is built with now.
    package func update(keys: [Key], geometry: ItemGeometry, width: Double) -> Change {
        var change = Change()
        if keys != self.keys {
            self.keys = keys
            index = [:]
            index.reserveCapacity(keys.count)
            // A key listed twice is taken where it first appears.
            for (position, key) in keys.enumerated() where index[key] == nil { index[key] = position }
            appearance.keep(below: keys.count)
            change.keys = true
        }
        if geometry != self.geometry || width != self.width {
            self.geometry = geometry
            self.width = width
            change.layout = !change.keys
        }
        if change.keys || change.layout { layout = geometry.layout(width: width, itemCount: keys.count) }
        return change
    }

    /// Where `key` is, if the list has it.
    package func index(of key: Key) -> Int? { index[key] }

    /// The key of row `item`, if there is one.
    package func key(at item: Int) -> Key? { keys.indices.contains(item) ? keys[item] : nil }

    /// Row `item` appeared or disappeared: the offset the rows SwiftUI keeps
    /// made say the list is at (the top of the first), or `nil` while none is.
    package func row(_ item: Int, isShown: Bool) -> Double? {
        appearance.row(item, isShown: isShown)
        return appearance.offset(in: layout)
    }

    // MARK: PrefetchLayoutSource

    package var contentSize: Size { layout.contentSize }
    package var numberOfSections: Int { layout.numberOfSections }
    package func numberOfItems(inSection section: Int) -> Int { layout.numberOfItems(inSection: section) }
    package func itemFrames(in rect: Rect) -> [ItemFrame] {
        layout.itemPaths(in: rect).map { ItemFrame(path: $0, frame: layout.frame(at: $0)) }
    }
}
