/// The machinery ``CollectionView`` and ``TableView`` share: the layout, the
/// visible cells, the reuse pool, the frame loop, batch updates, and the
/// ``PrefetchPlanner`` whose decisions become prefetch and cancel calls.
///
/// The views are thin: they own an engine, translate their UIKit-named API to
/// it, and answer its questions through ``ItemViewEngineDelegate``. The
/// decisions about *what* to prefetch are all the planner's; the engine only
/// feeds it one ``ScrollFrame`` per layout pass and delivers its updates.
///
/// ## Invariants
/// - `visiblePaths` is `visibleCells`' keys, ascending; every one of them is a
///   valid index path of `layout`.
/// - A cell is in at most one place: visible, in the pool, or handed out by
///   `dequeue` and not yet returned.
/// - The data source is only asked for cells during a layout pass or
///   `reloadItems`, and never while a batch of updates is open, when its
///   model and the view's index paths disagree.

import Lookahead

@MainActor
final class ItemViewEngine {
    private enum Activity {
        case idle
        /// Asking the data source for cells or delivering prefetch calls.
        case layingOut
        /// Running a `performBatchUpdates` closure.
        case updating
    }

    /// The updates recorded inside an open `performBatchUpdates`.
    private struct PendingBatch {
        var deletes: [ItemPath] = []
        var inserts: [ItemPath] = []
        var moves: [BatchUpdateMapping.Move] = []
        var reloads: [ItemPath] = []
    }

    weak var delegate: (any ItemViewEngineDelegate)?
    let vocabulary: ItemViewVocabulary

    /// The size of the visible area.
    private(set) var viewportSize: Size
    /// The top-left corner of the visible area; clamped to the content at
    /// each layout pass.
    private(set) var contentOffset: Point = .zero
    /// `nil` until the first layout pass asks the data source for its counts.
    private(set) var layout: (any CollectionLayout)?
    private var planner: PrefetchPlanner?
    private(set) var policy: PrefetchPolicy = .system
    private(set) var isPrefetchingEnabled = true
    private(set) var needsLayout = true
    /// The time of the last frame.
    private(set) var time: Duration = .zero
    /// The velocity between layout passes (the library's one estimator, as a finite difference).
    private var velocity = VelocityEstimator(timeConstant: .zero)

    private var registrations: [String: Cell.Type] = [:]
    /// Cells that scrolled off, by reuse identifier; dequeued last in, first out.
    private var reusePool: [String: [Cell]] = [:]
    private(set) var visibleCells: [ItemPath: Cell] = [:]
    private(set) var visiblePaths: [ItemPath] = []
    /// UIKit's cell prefetching: cells made ahead of being shown, and cells
    /// that left kept ready to be shown again without a new `cellForItemAt`.
    private(set) var isCellPrefetchingEnabled = false
    /// Cells off screen but not in the pool, by path: made ahead (never
    /// shown) or kept after leaving (their display already ended).
    private(set) var offscreenCells: [ItemPath: Cell] = [:]
    /// The offset of the last layout pass: the direction cells are made ahead in.
    private var lastOffset = Point(x: 0, y: 0)
    /// Cells dequeued during the current data source call, while one runs.
    private var dequeuedDuringCall: [ObjectIdentifier: Cell]?

    private var activity = Activity.idle
    private var batch: PendingBatch?

    /// How many cells the pool has created. For tests.
    private(set) var createdCellCount = 0

    init(viewportSize: Size, vocabulary: ItemViewVocabulary) {
        self.vocabulary = vocabulary
        self.viewportSize = viewportSize
        checkViewport(viewportSize)
    }

    // MARK: - Geometry

    /// Resizes the visible area; a new width lays the items out again.
    func setViewportSize(_ size: Size) {
        checkViewport(size)
        let widthChanged = size.width != viewportSize.width
        viewportSize = size
        needsLayout = true
        if widthChanged { invalidateLayout() }
    }

    /// Scrolls to `offset` at the next layout pass; clamped to the content.
    func setContentOffset(_ offset: Point) {
        precondition(
            offset.x.isFinite && offset.y.isFinite,
            "\(vocabulary.viewName): the content offset must be finite, got \(offset)")
        contentOffset = layout.map { clamped(offset, in: $0) } ?? offset
        needsLayout = true
    }

    /// The size of the content; zero until the first layout pass.
    var contentSize: Size { layout?.contentSize ?? .zero }

    /// Rebuilds the layout from the current counts after a change of geometry
    /// (width, grid, row heights). Index paths keep their meaning, so what was
    /// prefetched stays prefetched.
    func invalidateLayout() {
        checkIdle("changing the layout")
        needsLayout = true
        guard let old = layout else { return }
        let new = makeLayout(itemCounts: Self.itemCounts(of: old))
        layout = new
        planner?.applyUpdates(layout: new) { $0 }
    }

    // MARK: - Prefetching

    func setPolicy(_ policy: PrefetchPolicy) {
        self.policy = policy
        planner?.setPolicy(policy)
        needsLayout = true
    }

    /// Tells the policy how long one load took (see `PrefetchPlanner.observeLoadDuration`).
    func observeLoadDuration(_ duration: Duration) {
        planner?.observeLoadDuration(duration)
    }

    /// Turns prefetching on or off; turning it off cancels what was asked for.
    func setPrefetchingEnabled(_ isEnabled: Bool) {
        isPrefetchingEnabled = isEnabled
        needsLayout = true
        syncPrefetching()
    }

    /// Forgets everything asked for and returns it, for a prefetch data source
    /// that is being replaced: the old one is told, the new one starts afresh.
    func withdrawPrefetches() -> [ItemPath] {
        needsLayout = true
        return planner?.cancelAll().cancel ?? []
    }

    /// The items asked for and neither shown nor cancelled since. For tests.
    var outstandingPrefetches: Set<ItemPath> { planner?.prefetched ?? [] }

    // MARK: - Cells

    func register(_ cellClass: Cell.Type, forReuseIdentifier identifier: String) {
        registrations[identifier] = cellClass
        // UIKit: a new registration replaces the old one, pooled cells included.
        reusePool[identifier] = nil
    }

    /// A cell from the pool (after `prepareForReuse()`), or a new one.
    ///
    /// - Complexity: O(1) amortized.
    func dequeueCell(withReuseIdentifier identifier: String, for path: ItemPath) -> Cell {
        guard let cellClass = registrations[identifier] else {
            preconditionFailure(
                "\(vocabulary.viewName): unable to dequeue a cell with identifier \"\(identifier)\": no class is "
                    + "registered for it; call \(vocabulary.register) first")
        }
        checkPath(path, in: ensureLayout(), vocabulary.dequeue)
        let cell: Cell
        if let reused = reusePool[identifier]?.popLast() {
            reused.reuseCount += 1
            reused.prepareForReuse()
            cell = reused
        } else {
            cell = cellClass.init(reuseIdentifier: identifier)
            createdCellCount += 1
        }
        dequeuedDuringCall?[ObjectIdentifier(cell)] = cell
        return cell
    }

    /// The visible cell at `path`, or `nil` if it is not visible.
    func cell(at path: ItemPath, caller: String) -> Cell? {
        checkPath(path, in: ensureLayout(), caller)
        return visibleCells[path]
    }

    /// The index path of a visible cell.
    ///
    /// - Complexity: O(visible cells).
    func indexPath(for cell: Cell) -> ItemPath? {
        visiblePaths.first { visibleCells[$0] === cell }
    }

    /// The layout, built from the data source's counts if there is none yet.
    var currentLayout: any CollectionLayout { ensureLayout() }

    var numberOfSections: Int { ensureLayout().numberOfSections }

    func numberOfItems(inSection section: Int, caller: String) -> Int {
        let layout = ensureLayout()
        precondition(
            section >= 0 && section < layout.numberOfSections,
            "\(vocabulary.viewName).\(caller): section \(section) is out of range (\(layout.numberOfSections) sections)"
        )
        return layout.numberOfItems(inSection: section)
    }

    // MARK: - Layout passes

    /// Lays out if something changed since the last pass, at the last frame's time.
    func layoutIfNeeded() {
        if needsLayout { layOut(at: time) }
    }

    /// One frame: scrolls to `offset` and lays out at `time`.
    func step(to offset: Point, at time: Duration) {
        precondition(
            time >= self.time,
            "\(vocabulary.viewName).step(to:at:): frames must not go back in time (\(time) after \(self.time))")
        setContentOffset(offset)
        layOut(at: time)
    }

    /// A layout pass: recycles the cells that left the viewport, asks for the
    /// ones that entered it (ascending), then feeds the planner the frame and
    /// delivers its update, cancels first.
    ///
    /// - Complexity: O(log n + visible + window) for n items.
    private func layOut(at time: Duration) {
        checkIdle("a layout pass")
        activity = .layingOut
        defer { activity = .idle }
        needsLayout = false
        let layout = ensureLayout()
        contentOffset = clamped(contentOffset, in: layout)
        let visibleRect = Rect(origin: contentOffset, size: viewportSize)
        let paths = layout.itemPaths(in: visibleRect)

        let stillVisible = Set(paths)
        // Descending, so that the pool hands the top cell out first again.
        for path in visiblePaths.reversed() where !stillVisible.contains(path) {
            guard let cell = visibleCells.removeValue(forKey: path) else { continue }
            endDisplay(cell, at: path)
            if isCellPrefetchingEnabled {
                offscreenCells[path] = cell
            } else {
                recycle(cell)
            }
        }
        // Cells now far off go back to the pool first, to be reused for the cells coming.
        if isCellPrefetchingEnabled { releaseOffscreenCells(beyond: visibleRect, in: layout) }
        for path in paths where visibleCells[path] == nil {
            // A cell made ahead, or kept since it left, is shown without asking the data source.
            let cell = offscreenCells.removeValue(forKey: path) ?? provideCell(at: path)
            visibleCells[path] = cell
            if let cell { host.engineWillDisplay(cell, at: path) }
        }
        visiblePaths = paths.filter { path in
            guard let cell = visibleCells[path] else { return false }
            cell.frame = layout.frame(at: path)
            return true
        }
        if isCellPrefetchingEnabled { prepareCells(ahead: visibleRect, in: layout) }
        lastOffset = contentOffset

        velocity.record(position: contentOffset.y, at: time)
        self.time = time
        syncPrefetching()
        // Mutated in place (optional chaining): a copy would copy its sets every frame.
        if let update = planner?.update(
            ScrollFrame(visibleRect: visibleRect, velocity: velocity.velocity, time: time))
        {
            deliver(update)
        }
    }

    /// Asks the data source for the cell at `path` and checks it was dequeued
    /// for the call, as UIKit does.
    private func provideCell(at path: ItemPath) -> Cell? {
        dequeuedDuringCall = [:]
        let provided = host.engineCell(at: path)
        let dequeued = dequeuedDuringCall ?? [:]
        dequeuedDuringCall = nil
        if let provided {
            precondition(
                dequeued[ObjectIdentifier(provided)] != nil,
                "\(vocabulary.viewName): \(vocabulary.cellProvider) must return a cell obtained from "
                    + "\(vocabulary.dequeue) during the call; the cell returned for \(path) was not")
        }
        // Dequeued but not returned: back to the pool, to be prepared again.
        for (id, cell) in dequeued where id != provided.map(ObjectIdentifier.init) {
            recycle(cell)
        }
        return provided
    }

    /// Tells the cell at `path`, then the view's delegate, that it left the screen.
    private func endDisplay(_ cell: Cell, at path: ItemPath) {
        cell.didEndDisplaying()
        host.engineDidEndDisplaying(cell, at: path)
    }

    /// With cell prefetching: lets go of the off-screen cells further than
    /// ``cellPrefetchDistance`` from `visibleRect`.
    private func releaseOffscreenCells(beyond visibleRect: Rect, in layout: any CollectionLayout) {
        let distance = cellPrefetchDistance
        let kept = Rect(
            x: visibleRect.minX - distance.width, y: visibleRect.minY - distance.height,
            width: visibleRect.width + 2 * distance.width, height: visibleRect.height + 2 * distance.height)
        for path in offscreenCells.keys.sorted() where !layout.frame(at: path).intersects(kept) {
            if let cell = offscreenCells.removeValue(forKey: path) { recycle(cell) }
        }
    }

    /// With cell prefetching: makes the cells within ``cellPrefetchDistance``
    /// of `visibleRect` ahead, in the direction of the scroll.
    private func prepareCells(ahead visibleRect: Rect, in layout: any CollectionLayout) {
        let distance = cellPrefetchDistance
        let moved = (x: contentOffset.x - lastOffset.x, y: contentOffset.y - lastOffset.y)
        // Along the axis that moved: down a list, or along a carousel.
        let ahead: Rect
        if moved.y != 0 {
            ahead = Rect(
                x: visibleRect.minX, y: moved.y > 0 ? visibleRect.maxY : visibleRect.minY - distance.height,
                width: visibleRect.width, height: distance.height)
        } else if moved.x != 0 {
            ahead = Rect(
                x: moved.x > 0 ? visibleRect.maxX : visibleRect.minX - distance.width, y: visibleRect.minY,
                width: distance.width, height: visibleRect.height)
        } else {
            return
        }
        for path in layout.itemPaths(in: ahead) where visibleCells[path] == nil && offscreenCells[path] == nil {
            guard let cell = provideCell(at: path) else { continue }
            cell.frame = layout.frame(at: path)
            offscreenCells[path] = cell
        }
    }

    /// How far beyond the screen cells are made ahead and kept after leaving,
    /// across and along: about a row of a photo grid, or an item of a
    /// carousel, as UIKit's cell prefetching reaches.
    var cellPrefetchDistance: Size {
        Size(
            width: (viewportSize.width * PrefetchCoordinatorCore.cellPrefetchScreens).rounded(),
            height: (viewportSize.height * PrefetchCoordinatorCore.cellPrefetchScreens).rounded())
    }

    /// Turns cell prefetching on or off; off lets go of the off-screen cells.
    func setCellPrefetchingEnabled(_ isEnabled: Bool) {
        isCellPrefetchingEnabled = isEnabled
        if !isEnabled { releaseOffscreenCells() }
    }

    /// Puts every off-screen cell back in the pool (a reload, a batch of
    /// updates: their index paths may name other items now).
    private func releaseOffscreenCells() {
        for path in offscreenCells.keys.sorted() {
            if let cell = offscreenCells.removeValue(forKey: path) { recycle(cell) }
        }
    }

    /// Puts `cell` back in the pool; its display, if it had one, has ended.
    private func recycle(_ cell: Cell) {
        // A cell of a class no longer registered under its identifier is dropped.
        guard let cellClass = registrations[cell.reuseIdentifier], cellClass == type(of: cell) else { return }
        reusePool[cell.reuseIdentifier, default: []].append(cell)
    }

    // MARK: - Reloading

    /// Asks the data source for everything again: rebuilds the layout from its
    /// counts, cancels what was asked for (those index paths may name other
    /// items now) and recycles the visible cells; the next layout pass asks
    /// for cells again and is a first layout for prefetching.
    func reloadData() {
        checkIdle("reloadData()")
        needsLayout = true
        for path in visiblePaths.reversed() {
            guard let cell = visibleCells[path] else { continue }
            endDisplay(cell, at: path)
            recycle(cell)
        }
        releaseOffscreenCells()
        visibleCells = [:]
        visiblePaths = []
        guard layout != nil else { return }
        let new = makeLayout(itemCounts: host.engineItemCounts())
        layout = new
        if let update = planner?.reload(layout: new) { deliver(update) }
    }

    /// Asks the data source again for the cells of `paths` that are visible.
    func reloadItems(at paths: [ItemPath]) {
        let caller = vocabulary.reload
        if batch != nil {
            batch?.reloads += paths
            return
        }
        checkIdle(caller)
        let layout = ensureLayout()
        for path in paths { checkPath(path, in: layout, caller) }
        let targets = Set(paths).filter { visibleCells[$0] != nil }.sorted()
        for path in targets.reversed() {
            guard let cell = visibleCells.removeValue(forKey: path) else { continue }
            endDisplay(cell, at: path)
            recycle(cell)
        }
        // A cell made ahead for a reloaded item shows what the item was.
        for path in paths {
            if let cell = offscreenCells.removeValue(forKey: path) { recycle(cell) }
        }
        activity = .layingOut
        defer { activity = .idle }
        for path in targets {
            guard let cell = provideCell(at: path) else { continue }
            cell.frame = layout.frame(at: path)
            visibleCells[path] = cell
            host.engineWillDisplay(cell, at: path)
        }
        visiblePaths = visibleCells.keys.sorted()
    }

    // MARK: - Batch updates

    /// Runs `updates`, in which the caller changes its model and reports the
    /// changes, then applies them: outstanding prefetches and visible cells
    /// follow their items to their new index paths, and the view lays out.
    func performBatchUpdates(_ updates: () -> Void) {
        if batch != nil {
            updates()  // nested: part of the enclosing batch
            return
        }
        checkIdle("performBatchUpdates(_:)")
        // The counts before the update; UIKit too asks for them here if it has none.
        ensureLayout()
        batch = PendingBatch()
        activity = .updating
        updates()
        activity = .idle
        let pending = batch ?? PendingBatch()
        batch = nil
        apply(pending)
    }

    func insertItems(at paths: [ItemPath]) {
        record { $0.inserts += paths }
    }

    func deleteItems(at paths: [ItemPath]) {
        record { $0.deletes += paths }
    }

    func moveItem(at from: ItemPath, to: ItemPath) {
        record { $0.moves.append(BatchUpdateMapping.Move(from: from, to: to)) }
    }

    /// Adds to the open batch, or makes a batch of one change, as UIKit does
    /// for changes reported outside `performBatchUpdates`.
    private func record(_ change: (inout PendingBatch) -> Void) {
        if batch != nil {
            change(&batch!)
        } else {
            performBatchUpdates { change(&self.batch!) }
        }
    }

    private func apply(_ pending: PendingBatch) {
        guard let old = layout else { preconditionFailure("performBatchUpdates(_:) always lays out first") }
        let newCounts = host.engineItemCounts()
        let mapping: BatchUpdateMapping
        do {
            mapping = try BatchUpdateMapping(
                oldCounts: Self.itemCounts(of: old), newCounts: newCounts, deletes: pending.deletes,
                inserts: pending.inserts, moves: pending.moves, noun: vocabulary.noun)
        } catch {
            preconditionFailure("\(vocabulary.viewName): \(error)")
        }
        var reloaded: [ItemPath] = []
        for path in pending.reloads {
            checkPath(path, in: old, vocabulary.reload)
            guard let new = mapping.newPath(for: path) else {
                preconditionFailure(
                    "\(vocabulary.viewName): Invalid update: attempt to delete and reload the same index path \(path)")
            }
            reloaded.append(new)
        }

        let new = makeLayout(itemCounts: newCounts)
        layout = new
        planner?.applyUpdates(layout: new, newPath: mapping.newPath(for:))

        // Cells follow their items; a deleted item's cell goes back to the pool.
        // No cell is configured here: the data source only sees new index paths.
        var remapped: [ItemPath: Cell] = [:]
        for path in visiblePaths {
            guard let cell = visibleCells[path] else { continue }
            if let newPath = mapping.newPath(for: path) {
                remapped[newPath] = cell
            } else {
                endDisplay(cell, at: path)
                recycle(cell)
            }
        }
        for path in reloaded {
            guard let cell = remapped.removeValue(forKey: path) else { continue }
            endDisplay(cell, at: path)
            recycle(cell)
        }
        releaseOffscreenCells()
        visibleCells = remapped
        visiblePaths = remapped.keys.sorted()
        layOut(at: time)
    }

    // MARK: - Helpers

    private var host: any ItemViewEngineDelegate {
        guard let delegate else { preconditionFailure("\(vocabulary.viewName): the view was released") }
        return delegate
    }

    @discardableResult
    private func ensureLayout() -> any CollectionLayout {
        if let layout { return layout }
        let layout = makeLayout(itemCounts: host.engineItemCounts())
        self.layout = layout
        if planner == nil {
            // Enabled at the first frame, once the prefetch data source is known.
            planner = PrefetchPlanner(layout: layout, policy: policy, isEnabled: false)
        }
        return layout
    }

    private func makeLayout(itemCounts: [Int]) -> any CollectionLayout {
        host.engineMakeLayout(itemCounts: itemCounts, width: viewportSize.width)
    }

    /// Prefetching runs when it is enabled and someone listens: without a
    /// prefetch data source the planner would hold items nobody was asked for.
    private func syncPrefetching() {
        let isActive = isPrefetchingEnabled && (delegate?.engineCanPrefetch ?? false)
        guard let isEnabled = planner?.isEnabled, isEnabled != isActive,
            let update = planner?.setEnabled(isActive)
        else { return }
        deliver(update)
    }

    private func deliver(_ update: PrefetchPlanner.Update) {
        guard let delegate else { return }
        if !update.cancel.isEmpty { delegate.engineCancelPrefetching(update.cancel) }
        if !update.prefetch.isEmpty { delegate.enginePrefetch(update.prefetch) }
    }

    private func clamped(_ offset: Point, in layout: any CollectionLayout) -> Point {
        let content = layout.contentSize
        let maxX = max(0, content.width - viewportSize.width)
        let maxY = max(0, content.height - viewportSize.height)
        return Point(x: min(max(offset.x, 0), maxX), y: min(max(offset.y, 0), maxY))
    }

    func checkPath(_ path: ItemPath, in layout: any CollectionLayout, _ caller: String) {
        let sections = layout.numberOfSections
        precondition(
            path.section >= 0 && path.section < sections,
            "\(vocabulary.viewName).\(caller): index path \(path) is out of range: there are \(sections) sections")
        let count = layout.numberOfItems(inSection: path.section)
        precondition(
            path.item >= 0 && path.item < count,
            "\(vocabulary.viewName).\(caller): index path \(path) is out of range: section \(path.section) has "
                + "\(count) \(vocabulary.noun)s")
    }

    private func checkIdle(_ operation: String) {
        switch activity {
        case .idle:
            return
        case .layingOut:
            preconditionFailure(
                "\(vocabulary.viewName): \(operation) is not allowed while the view lays out (from "
                    + "\(vocabulary.cellProvider) or a prefetch callback); do it afterwards")
        case .updating:
            preconditionFailure(
                "\(vocabulary.viewName): \(operation) is not allowed inside performBatchUpdates(_:), while the model "
                    + "and the view's index paths disagree; do it after the batch")
        }
    }

    private func checkViewport(_ size: Size) {
        precondition(
            size.width.isFinite && size.width > 0 && size.height.isFinite && size.height >= 0,
            "\(vocabulary.viewName): the viewport needs a finite width greater than 0 and a finite height, got \(size)")
    }

    private static func itemCounts(of layout: any CollectionLayout) -> [Int] {
        (0..<layout.numberOfSections).map(layout.numberOfItems(inSection:))
    }
}
