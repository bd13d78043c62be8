/// A reusable cell of a headless ``CollectionView`` or ``TableView``.
///
/// `UICollectionViewCell` without the drawing: what matters to prefetching is
/// the cell's life cycle. A view creates cells only through its reuse pool
/// (`dequeueReusableCell…`); a cell that scrolls off goes back to the pool, and
/// the next time it is dequeued `prepareForReuse()` runs before the data source
/// sees it again — so a cell may be shown for many items in turn.
///
/// That is why a cell remembers the item it shows in `representedIdentifier`:
/// a fetch completion that arrives after the cell was reused for another item
/// compares identifiers and leaves the cell alone, as in Apple's
/// "Prefetching collection view data" sample.
///
/// Subclass it for your content (see ``ContentCell``). Subclasses must keep the
/// `required` initializer: the view creates instances from the registered class.

public import Lookahead

@MainActor
open class Cell {
    /// The identifier the cell was registered and dequeued with.
    public let reuseIdentifier: String

    /// The identity of the item the cell shows now; `nil` once it is being reused.
    ///
    /// Set it in `cellForItemAt`, and compare it in every asynchronous
    /// completion before touching the cell.
    public var representedIdentifier: AnyHashable?

    /// Where the view placed the cell, in content coordinates.
    public internal(set) var frame: Rect = .zero

    /// How many times the view took this cell out of its reuse pool. For tests.
    package internal(set) var reuseCount = 0

    /// Creates a cell. The view calls this when its pool has no cell to reuse.
    public required init(reuseIdentifier: String) {
        self.reuseIdentifier = reuseIdentifier
    }

    /// Called when the cell leaves the screen (scrolled off, reloaded or
    /// deleted), before it goes back to the reuse pool: UIKit's
    /// `collectionView(_:didEndDisplaying:forItemAt:)`, told to the cell.
    ///
    /// A ``CarouselCell`` takes its inner collection's cells off the screen
    /// here, as the row leaves it. Overrides must call `super`.
    open func didEndDisplaying() {}

    /// Called when the cell is taken from the reuse pool, before the data
    /// source configures it again.
    ///
    /// Reset what the previous item left behind. Overrides must call `super`,
    /// which clears `representedIdentifier`.
    open func prepareForReuse() {
        representedIdentifier = nil
    }
}
