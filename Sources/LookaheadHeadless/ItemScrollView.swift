// What the headless CollectionView and TableView do alike — scrolling,
// frames, prefetching switches, reloads and batch updates — written once, as
// UIScrollView holds what UICollectionView and UITableView share.

public import Lookahead

/// The headless scroll view of reusable cells that ``CollectionView`` and
/// ``TableView`` are: one frame loop, one reuse pool, one prefetch planner.
///
/// Nothing is drawn. What is reproduced is what a data source sees: which
/// cells are asked for and when, how cells are reused, and the prefetch and
/// cancel calls a ``PrefetchPlanner`` makes of the scrolling. Tests, the
/// simulator and Linux demos use it to exercise exactly the code an app hands
/// to UIKit.
///
/// Each layout pass — `layoutIfNeeded()` after a change, or one `step(to:at:)`
/// per frame — recycles the cells that left the viewport, asks the data source
/// for the ones that entered it in ascending order, then gives the planner the
/// frame (the visible rect and the velocity since the last frame) and forwards
/// its decision: cancels first, then prefetches, never with an empty array.
///
/// Apps use one of the two subclasses, which add the data sources and UIKit's
/// names for their cells and items (`cellForItem(at:)`, `cellForRow(at:)`, …);
/// what is here has one name in both.
@MainActor
public class ItemScrollView {
    let engine: ItemViewEngine

    init(viewportSize: Size, vocabulary: ItemViewVocabulary) {
        engine = ItemViewEngine(viewportSize: viewportSize, vocabulary: vocabulary)
    }

    // MARK: - Prefetching

    /// Whether the prefetch data source is told about upcoming items; on by
    /// default. Turning it off cancels everything it was asked for.
    public var isPrefetchingEnabled: Bool {
        get { engine.isPrefetchingEnabled }
        set { engine.setPrefetchingEnabled(newValue) }
    }

    /// Whether cells are made ahead of being shown and kept a while after
    /// leaving, as UIKit's cell prefetching does (WWDC 2016 "What's New in
    /// UICollectionView in iOS 10"; WWDC 2021 session 10252 for table views):
    /// `cellForItemAt` comes about a row before a cell is shown, in the
    /// direction of the scroll, for cells that may never be shown, and a cell
    /// the user scrolls back to within that distance is shown again — a new
    /// `willDisplay` — without a new `cellForItemAt`; a cell goes back to the
    /// pool (`prepareForReuse` on its next use) only once it is that far off.
    ///
    /// UIKit's `isPrefetchingEnabled` covers this and the prefetch data
    /// source together, on by default. Here it is its own switch and off by
    /// default, so that a test of data prefetching sees one `cellForItemAt`
    /// per cell shown; turn it on to see what an app on UIKit sees.
    public var isCellPrefetchingEnabled: Bool {
        get { engine.isCellPrefetchingEnabled }
        set { engine.setCellPrefetchingEnabled(newValue) }
    }

    /// The paths of the cells made ahead or kept since they left, off
    /// screen and out of the pool.
    package var offscreenCellPaths: Set<ItemPath> { Set(engine.offscreenCells.keys) }

    /// Which items are prefetched; `.system`, UIKit's behaviour, by default.
    public var prefetchPolicy: PrefetchPolicy {
        get { engine.policy }
        set { engine.setPolicy(newValue) }
    }

    /// Tells the prefetch policy how long one load took, for a policy that
    /// learns from it (`.adaptive`); the others ignore it. Feed it from the
    /// fetcher's events:
    ///
    /// ```swift
    /// let observation = fetcher.observe { event in
    ///     guard case .succeeded(_, let duration) = event else { return }
    ///     Task { @MainActor in view.observeLoadDuration(duration) }
    /// }
    /// ```
    public func observeLoadDuration(_ duration: Duration) {
        engine.observeLoadDuration(duration)
    }

    // MARK: - Geometry

    /// The visible area: its origin is the content offset, its size the view's.
    public var bounds: Rect {
        get { Rect(origin: engine.contentOffset, size: engine.viewportSize) }
        set {
            engine.setViewportSize(newValue.size)
            engine.setContentOffset(newValue.origin)
        }
    }

    /// The top-left corner of the visible area. Clamped to the content; the
    /// next layout pass shows it.
    public var contentOffset: Point {
        get { engine.contentOffset }
        set { engine.setContentOffset(newValue) }
    }

    /// Scrolls to `offset` at the next layout pass.
    public func setContentOffset(_ offset: Point) {
        engine.setContentOffset(offset)
    }

    /// The size of all the items; zero until the first layout pass.
    public var contentSize: Size { engine.contentSize }

    // MARK: - Frames

    /// Lays out now if anything changed since the last pass (the first pass,
    /// a new offset, a reload), at the time of the last frame.
    public func layoutIfNeeded() {
        engine.layoutIfNeeded()
    }

    /// One frame of scrolling: moves to `offset` and lays out, with the
    /// velocity measured since the previous frame.
    ///
    /// - Parameters:
    ///   - offset: the new content offset; clamped to the content.
    ///   - time: when the frame is shown, on any fixed origin; not before the
    ///     previous frame.
    /// - Complexity: O(log n + visible + window) for n items.
    public func step(to offset: Point, at time: Duration) {
        engine.step(to: offset, at: time)
    }

    /// Plays a trace of (time, offset) samples, one frame each.
    public func replay(_ trace: some Sequence<(time: Duration, offset: Point)>) {
        for sample in trace { engine.step(to: sample.offset, at: sample.time) }
    }

    // MARK: - Cells

    /// The visible cells, in the order of their index paths.
    public var visibleCells: [Cell] { engine.visiblePaths.compactMap { engine.visibleCells[$0] } }

    /// The index path of a visible cell, or `nil`.
    ///
    /// - Complexity: O(visible cells).
    public func indexPath(for cell: Cell) -> ItemPath? {
        engine.indexPath(for: cell)
    }

    /// The number of sections, as the data source last reported it.
    public var numberOfSections: Int { engine.numberOfSections }

    // MARK: - Changes

    /// Discards everything and asks the data source again: cancels what was
    /// asked for, recycles the visible cells, and makes the next layout pass a
    /// first layout.
    public func reloadData() {
        engine.reloadData()
    }

    /// Applies the inserts, deletes and moves that `updates` reports, after it
    /// has changed the model.
    ///
    /// Deletes and move sources are index paths before the update, inserts and
    /// move destinations index paths after it. Outstanding prefetches and
    /// visible cells follow their items to their new index paths; a deleted
    /// item's cell is recycled and its prefetch dropped without a cancel. The
    /// view then lays out again.
    ///
    /// - Precondition: the data source's counts after the update equal those
    ///   before it, plus inserts, minus deletes, plus or minus moves, section
    ///   by section.
    public func performBatchUpdates(_ updates: () -> Void) {
        engine.performBatchUpdates(updates)
    }

    // MARK: - Test hooks

    /// How many cells the reuse pool has created.
    package var createdCellCount: Int { engine.createdCellCount }

    /// The items asked for and neither shown nor cancelled since.
    package var outstandingPrefetches: Set<ItemPath> { engine.outstandingPrefetches }
}
