// An inner collection view's handle on its feed's NestedPrefetchCoordinator:
// what its scroll delegate and its cells report go through it.

/// The link between an inner (horizontal) collection view and the
/// ``NestedPrefetchCoordinator`` of its feed, from
/// ``NestedPrefetchCoordinator/registerNested(_:forRow:)``.
///
/// Keep it in the outer cell, with the inner collection view: on reuse, hand
/// it to `registerNested` again with the new row. Forward the inner view's
/// scroll delegate calls and its cells' life to it:
/// - ``scrollViewDidScroll(contentOffsetX:at:)`` from `scrollViewDidScroll`;
/// - ``requestDisplay(atItem:for:completion:)`` from `cellForItemAt`;
/// - ``willDisplay(_:atItem:)`` from `willDisplay`;
/// - ``didEndDisplaying(_:)`` from `didEndDisplaying`.
///
/// It holds its coordinator weakly: a link outliving its feed does nothing.
@MainActor
public final class NestedCollectionLink<Key: Hashable & Sendable, Value: Sendable> {
    /// The coordinator the link reports to.
    public private(set) weak var coordinator: NestedPrefetchCoordinator<Key, Value>?
    /// The row the inner collection shows; `nil` before it is registered and after it is unregistered.
    public private(set) var row: Int?
    /// The row's horizontal offset when it was registered: where its carousel was left, clamped to its content.
    public private(set) var contentOffset: Double = 0
    private var tracker = ScrollTracker()

    init(coordinator: NestedPrefetchCoordinator<Key, Value>) {
        self.coordinator = coordinator
    }

    /// Shows `row` from now on, its carousel at `offset`; the motion measured so far is forgotten.
    func show(row: Int?, offset: Double) {
        self.row = row
        contentOffset = offset
        tracker.reset()
    }

    /// Follows its row through a batch update of the feed: the row's
    /// carousel keeps its offset and its measured motion; `nil` for a deleted row.
    func move(toRow row: Int?) {
        self.row = row
        if row == nil { tracker.reset() }
    }

    /// Items were inserted, deleted or moved in the inner collection (its
    /// `performBatchUpdates`): see
    /// ``NestedPrefetchCoordinator/applyUpdates(inRow:layout:newItem:)``.
    /// A link showing no row does nothing.
    ///
    /// - Parameters:
    ///   - layout: the feed after the update.
    ///   - newItem: the index after the update of the item at an index before it, or `nil` if it was deleted.
    public func applyUpdates(layout: CarouselFeedLayout, newItem: (Int) -> Int?) {
        guard let row, let coordinator else { return }
        coordinator.applyUpdates(inRow: row, layout: layout, newItem: newItem)
    }

    /// The inner collection scrolled: its offset is planned at once, with the
    /// feed where it is. Call it from the inner view's `scrollViewDidScroll`.
    ///
    /// - Parameters:
    ///   - contentOffsetX: the inner view's horizontal content offset.
    ///   - time: when the frame is shown, on the feed's clock.
    /// A report with a non-finite offset, or from a link showing no row, is ignored.
    public func scrollViewDidScroll(contentOffsetX: Double, at time: Duration) {
        report(contentOffsetX: contentOffsetX, velocity: nil, at: time)
    }

    /// A drag of the inner collection ended: plans at once with the
    /// horizontal velocity it reports, in points per **second** (UIKit
    /// reports points per millisecond: multiply by 1000).
    public func scrollViewWillEndDragging(velocity: Double, contentOffsetX: Double, at time: Duration) {
        report(contentOffsetX: contentOffsetX, velocity: velocity, at: time)
    }

    /// Asks for the value of item `item` of the link's row for `cell`: call
    /// it from the inner view's `cellForItemAt`. See
    /// ``NestedPrefetchCoordinator/requestDisplay(at:for:completion:)``.
    ///
    /// - Returns: the request, or `nil` if the item has nothing to load or the link shows no row.
    @discardableResult
    public func requestDisplay(
        atItem item: Int, for cell: AnyObject,
        completion: @escaping @MainActor @Sendable (Result<Value, any Error>) -> Void
    ) -> FetchTask? {
        guard let row, let coordinator else { return nil }
        return coordinator.requestDisplay(at: NestedItemPath(row: row, item: item), for: cell, completion: completion)
    }

    /// `cell`, showing item `item`, is displayed, perhaps again without a
    /// new `cellForItemAt`: see ``NestedPrefetchCoordinator/willDisplay(_:at:)``.
    public func willDisplay(_ cell: AnyObject, atItem item: Int) {
        guard let row else { return }
        coordinator?.willDisplay(cell, at: NestedItemPath(row: row, item: item))
    }

    /// `cell` left the screen: its display request drops to `.veryLow`; see
    /// ``NestedPrefetchCoordinator/didEndDisplaying(_:)``.
    public func didEndDisplaying(_ cell: AnyObject) {
        coordinator?.didEndDisplaying(cell)
    }

    private func report(contentOffsetX: Double, velocity: Double?, at time: Duration) {
        guard let row, let coordinator,
            let frame = tracker.frame(
                contentOffset: Point(x: 0, y: contentOffsetX), viewportSize: Size(width: 1, height: 1), time: time,
                velocity: velocity)
        else { return }
        coordinator.carouselDidScroll(
            NestedPrefetchPlanner.CarouselScroll(row: row, offset: contentOffsetX, velocity: frame.velocity), at: time)
    }
}
