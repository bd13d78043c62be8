/// The layout of a headless carousel view: one row of items of one width,
/// left to right, `spacing` apart, as `UICollectionViewFlowLayout` lays them
/// out with `scrollDirection = .horizontal` and a single line.
///
/// It answers the questions of ``CollectionLayout`` — which items a rectangle
/// crosses, where an item is — by arithmetic: the view's visible cells follow
/// its horizontal offset. Policies that plan vertically do not read it; a
/// carousel's prefetching is planned by ``NestedPrefetchPlanner``.

import Lookahead

struct HorizontalListLayout: CollectionLayout {
    let itemWidth: Double
    let itemHeight: Double
    let spacing: Double
    let itemCount: Int

    /// - Precondition: `itemWidth` above 0, `itemHeight` and `spacing` not
    ///   negative, all finite; `itemCount` not negative.
    init(itemWidth: Double, itemHeight: Double, spacing: Double, itemCount: Int) {
        precondition(
            itemWidth.isFinite && itemWidth > 0 && itemHeight.isFinite && itemHeight >= 0 && spacing.isFinite
                && spacing >= 0 && itemCount >= 0,
            "CollectionView.Carousel: item width \(itemWidth) must be above 0, item height \(itemHeight) and "
                + "spacing \(spacing) finite and not negative, item count \(itemCount) not negative")
        self.itemWidth = itemWidth
        self.itemHeight = itemHeight
        self.spacing = spacing
        self.itemCount = itemCount
    }

    var contentSize: Size {
        Size(width: itemCount == 0 ? 0 : Double(itemCount) * (itemWidth + spacing) - spacing, height: itemHeight)
    }

    var numberOfSections: Int { 1 }

    func numberOfItems(inSection section: Int) -> Int { section == 0 ? itemCount : 0 }

    var totalItemCount: Int { itemCount }

    var columns: Int { max(1, itemCount) }

    func frame(at path: ItemPath) -> Rect {
        Rect(x: Double(path.item) * (itemWidth + spacing), y: 0, width: itemWidth, height: itemHeight)
    }

    /// - Complexity: O(1) per item returned.
    func itemPaths(in rect: Rect) -> [ItemPath] {
        guard itemCount > 0, rect.maxY > 0, rect.minY < itemHeight, rect.width > 0 else { return [] }
        let pitch = itemWidth + spacing
        // The first item whose right edge is past the rect's left edge, the last whose left edge is before its right.
        let first = max(0, Int(((rect.minX - itemWidth) / pitch).rounded(.down)) + 1)
        let end = min(itemCount, Int((rect.maxX / pitch).rounded(.up)))
        guard first < end else { return [] }
        return (first..<end).compactMap { item in
            let path = ItemPath(item: item, section: 0)
            return frame(at: path).intersects(rect) ? path : nil
        }
    }

    func flatIndex(of path: ItemPath) -> Int { path.item }

    func itemPath(atFlatIndex index: Int) -> ItemPath { ItemPath(item: index, section: 0) }
}
