// The forwarding for a feed of carousels in UIKit: the outer collection
// view's scrolling to a NestedPrefetchCoordinator, each inner collection
// view's to its NestedCollectionLink, and a carousel row's item size and
// spacing read from its flow layout. Only forwarding: the decisions are the
// portable NestedPrefetchPlanner's. Compiled only where UIKit exists (not
// on Linux, where it has never been compiled).

#if canImport(UIKit) && !os(watchOS)
public import Lookahead
public import UIKit

extension NestedPrefetchCoordinator {
    /// Plans the frame the feed shows now: call it from the outer
    /// collection view's `scrollViewDidScroll(_:)`.
    ///
    /// - Parameter time: now, on the clock every report of the feed and its carousels uses.
    public func scrollViewDidScroll(_ scrollView: UIScrollView, at time: Duration) {
        scrollViewDidScroll(
            contentOffset: Point(scrollView.contentOffset), viewportSize: Size(scrollView.bounds.size), at: time)
    }

    /// A drag of the feed ended: call it from the outer collection view's
    /// `scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)`,
    /// after any change the app makes to the target.
    public func scrollViewWillEndDragging(
        _ scrollView: UIScrollView, withVelocity velocity: CGPoint,
        targetContentOffset: UnsafeMutablePointer<CGPoint>, at time: Duration
    ) {
        // UIKit's velocity is in points per millisecond.
        scrollViewWillEndDragging(
            velocity: Double(velocity.y) * 1_000, targetContentOffset: Point(targetContentOffset.pointee),
            contentOffset: Point(scrollView.contentOffset), viewportSize: Size(scrollView.bounds.size), at: time)
    }

    /// The app is about to scroll the feed with an animation to
    /// `targetContentOffset`: call it just before `setContentOffset(_:animated: true)`
    /// or `scrollToItem(at:at:animated: true)`, and `scrollViewDidEndFling()`
    /// from `scrollViewDidEndScrollingAnimation(_:)`.
    public func scrollViewWillAnimateScroll(
        _ scrollView: UIScrollView, to targetContentOffset: CGPoint, at time: Duration
    ) {
        scrollViewWillAnimateScroll(
            to: Point(targetContentOffset), contentOffset: Point(scrollView.contentOffset),
            viewportSize: Size(scrollView.bounds.size), at: time)
    }

    /// Rows were inserted, deleted or moved in the feed: call it inside
    /// the outer collection view's `performBatchUpdates(_:completion:)`
    /// updates block, after changing the data, before UIKit asks for new
    /// cells. See `NestedPrefetchCoordinator.applyUpdates(layout:newRow:)`.
    ///
    /// - Parameter newIndexPath: the index path after the update of the
    ///   row at an index path before it, or `nil` if it was deleted.
    public func applyUpdates(layout: CarouselFeedLayout, newIndexPath: (IndexPath) -> IndexPath?) {
        applyUpdates(layout: layout) { row in newIndexPath(IndexPath(item: row, section: 0))?.item }
    }

    /// Asks for the value of a plain cell of the feed (item 0 of its row)
    /// for `cell`; see `NestedPrefetchCoordinator.requestDisplay(at:for:completion:)`.
    @discardableResult
    public func requestDisplay(
        at indexPath: IndexPath, for cell: UIView,
        completion: @escaping @MainActor @Sendable (Result<Value, any Error>) -> Void
    ) -> FetchTask? {
        requestDisplay(at: NestedItemPath(row: indexPath.item, item: 0), for: cell, completion: completion)
    }

    /// A plain cell of the feed is displayed: call it from the outer
    /// collection view's `collectionView(_:willDisplay:forItemAt:)`; see
    /// `NestedPrefetchCoordinator.willDisplay(_:at:)`.
    public func willDisplay(_ cell: UIView, at indexPath: IndexPath) {
        willDisplay(cell, at: NestedItemPath(row: indexPath.item, item: 0))
    }
}

extension NestedCollectionLink {
    /// The inner collection view scrolled: call it from its `scrollViewDidScroll(_:)`.
    public func scrollViewDidScroll(_ scrollView: UIScrollView, at time: Duration) {
        scrollViewDidScroll(contentOffsetX: Double(scrollView.contentOffset.x), at: time)
    }

    /// A drag of the inner collection view ended: call it from its
    /// `scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)`.
    public func scrollViewWillEndDragging(
        _ scrollView: UIScrollView, withVelocity velocity: CGPoint, at time: Duration
    ) {
        // UIKit's velocity is in points per millisecond; a carousel moves along x.
        scrollViewWillEndDragging(
            velocity: Double(velocity.x) * 1_000, contentOffsetX: Double(scrollView.contentOffset.x), at: time)
    }

    /// Asks for the value of the inner item at `indexPath` for `cell`: call
    /// it from the inner `cellForItemAt`.
    @discardableResult
    public func requestDisplay(
        at indexPath: IndexPath, for cell: UIView,
        completion: @escaping @MainActor @Sendable (Result<Value, any Error>) -> Void
    ) -> FetchTask? {
        requestDisplay(atItem: indexPath.item, for: cell, completion: completion)
    }

    /// Items were inserted, deleted or moved in the inner collection
    /// view: call it inside its `performBatchUpdates(_:completion:)`
    /// updates block, after changing the data. See
    /// `NestedCollectionLink.applyUpdates(layout:newItem:)`.
    ///
    /// - Parameter newIndexPath: the index path after the update of the
    ///   item at an index path before it, or `nil` if it was deleted.
    public func applyUpdates(layout: CarouselFeedLayout, newIndexPath: (IndexPath) -> IndexPath?) {
        applyUpdates(layout: layout) { item in newIndexPath(IndexPath(item: item, section: 0))?.item }
    }

    /// An inner cell is displayed, perhaps again without a new
    /// `cellForItemAt`: call it from the inner
    /// `collectionView(_:willDisplay:forItemAt:)`. (From the inner
    /// `collectionView(_:didEndDisplaying:forItemAt:)`, call
    /// `didEndDisplaying(cell)`: the cell, not its index path, names its request.)
    public func willDisplay(_ cell: UIView, at indexPath: IndexPath) {
        willDisplay(cell, atItem: indexPath.item)
    }
}

extension CarouselFeedLayout.Row {
    /// A carousel row laid out by a horizontal `UICollectionViewFlowLayout`:
    /// its `itemSize.width`, and its `minimumLineSpacing`, which for a
    /// horizontal scroll direction is the gap between columns. Items
    /// sized by the delegate's `collectionView(_:layout:sizeForItemAt:)`
    /// or self-sizing (`estimatedItemSize`) are not what `itemSize` says:
    /// give their width to `carousel(height:itemWidth:itemCount:spacing:)`.
    ///
    /// - Parameters:
    ///   - flowLayout: the inner collection view's layout (one line, one section).
    ///   - itemCount: the number of items the row's carousel shows.
    ///   - height: the row's height in the feed.
    @MainActor
    public static func carousel(flowLayout: UICollectionViewFlowLayout, itemCount: Int, height: Double) -> Self {
        .carousel(
            height: height, itemWidth: Double(flowLayout.itemSize.width), itemCount: itemCount,
            spacing: Double(flowLayout.minimumLineSpacing))
    }
}
#endif
