// The headless CollectionView as a carousel: one horizontally scrolling row,
// the inner collection of a feed's row (see CarouselCell).

public import Lookahead

extension CollectionView {
    /// A horizontal arrangement: one row of items of one width, left to
    /// right, as a `UICollectionViewFlowLayout` with a horizontal scroll
    /// direction lays out a carousel. Items are as tall as the view.
    public struct Carousel: Hashable, Sendable {
        /// The width of every item; above 0.
        public var itemWidth: Double
        /// The gap between two items; 0 or more.
        public var spacing: Double

        /// Creates a carousel description; the view checks the values when it lays out.
        public init(itemWidth: Double, spacing: Double = 0) {
            self.itemWidth = itemWidth
            self.spacing = spacing
        }

        /// The layout of these counts (one section) at this height.
        func makeLayout(itemCounts: [Int], height: Double) -> any CollectionLayout {
            precondition(
                itemCounts.count <= 1, "CollectionView.Carousel: a carousel has one section, got \(itemCounts.count)")
            return HorizontalListLayout(
                itemWidth: itemWidth, itemHeight: height, spacing: spacing, itemCount: itemCounts.first ?? 0)
        }
    }

    /// Creates a horizontally scrolling collection view: the inner collection
    /// of a feed's carousel row.
    ///
    /// Its visible cells follow its horizontal content offset, and it reuses
    /// its cells as any collection view does. It makes no prefetch calls of
    /// its own (``ItemScrollView/isPrefetchingEnabled`` is off): a carousel in a feed is
    /// prefetched on both axes by a ``NestedPrefetchCoordinator``, to which
    /// its scrolling is reported.
    ///
    /// - Parameters:
    ///   - carousel: the items' width and spacing.
    ///   - size: the visible area: the feed's width, the row's height.
    public convenience init(carousel: Carousel, size: Size) {
        self.init(grid: Grid(), size: size)
        self.carousel = carousel
        isPrefetchingEnabled = false
    }
}
