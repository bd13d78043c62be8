/// A headless feed cell that hosts a horizontally scrolling ``CollectionView``:
/// a carousel row, as an app's `UICollectionViewCell` holds an inner
/// `UICollectionView`.
///
/// The inner collection has its own content offset, visible cells and reuse
/// pool. When the row leaves the screen, its inner cells leave too
/// (``didEndDisplaying()`` recycles them); when the cell is reused for
/// another row, the data source hands the inner collection its new row — its
/// data, and the offset that row last had — as apps do:
///
/// ```swift
/// let cell = feed.dequeueReusableCell(withReuseIdentifier: "row", for: path) as! MyRowCell
/// cell.row = path.item                                   // what the inner data source shows
/// let offset = coordinator.registerNested(cell.link, forRow: path.item)
/// cell.collectionView.reloadData()
/// cell.collectionView.contentOffset = Point(x: offset, y: 0)
/// cell.collectionView.layoutIfNeeded()
/// ```
///
/// Subclass it to say how the carousel is laid out (``carousel`` and
/// ``carouselSize``, class properties as UIKit's `layerClass`), and keep the
/// `required` initializer.

public import Lookahead

@MainActor
open class CarouselCell: Cell {
    /// How the inner collection lays out its items; 120 pt wide, 10 pt apart unless overridden.
    open class var carousel: CollectionView.Carousel { CollectionView.Carousel(itemWidth: 120, spacing: 10) }
    /// The inner collection's visible area: the feed's width, the row's height; an iPhone's width and 200 pt unless overridden.
    open class var carouselSize: Size { Size(width: 390, height: 200) }

    /// The inner, horizontally scrolling collection.
    public let collectionView: CollectionView

    /// Creates a cell and its inner collection. The outer view calls this when its pool has no cell to reuse.
    public required init(reuseIdentifier: String) {
        collectionView = CollectionView(carousel: Self.carousel, size: Self.carouselSize)
        super.init(reuseIdentifier: reuseIdentifier)
    }

    /// The row left the screen: so do the inner collection's cells, which go
    /// back to its pool (each told ``Cell/didEndDisplaying()``).
    open override func didEndDisplaying() {
        super.didEndDisplaying()
        if collectionView.dataSource != nil { collectionView.reloadData() }
    }
}
