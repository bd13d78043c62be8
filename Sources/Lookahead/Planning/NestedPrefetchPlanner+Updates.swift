// Batch updates of a feed of carousels: rows inserted, deleted or moved in the
// feed, and items in one carousel. What was asked for follows its item; a
// deleted item's is dropped (its caller withdraws it by identity).

extension NestedPrefetchPlanner {
    /// Replaces the layout after rows were inserted, deleted or moved in the
    /// feed (the outer collection's `performBatchUpdates`): what each row
    /// asked for, its carousel's planner and its remembered offset follow the
    /// row to its new index; a deleted row's are dropped without a cancel.
    ///
    /// The next frame plans on the new layout as on any other: it asks for
    /// what it wants and cancels what is no longer wanted.
    ///
    /// - Parameters:
    ///   - layout: the feed after the update.
    ///   - newRow: the index after the update of the row at an index before
    ///     it, or `nil` for a deleted row; it must answer with rows of `layout`.
    /// - Complexity: O(wants + swiped rows) calls to `newRow`.
    public mutating func applyUpdates(layout: CarouselFeedLayout, newRow: (Int) -> Int?) {
        self.layout = layout
        rows.applyUpdates(layout: layout.outer) { path in newRow(path.item).map { ItemPath(item: $0, section: 0) } }
        var moved = Array(repeating: 0.0, count: layout.rows.count)
        for (row, offset) in offsets.enumerated() where offset != 0 {
            if let new = newRow(row) { moved[new] = offset }
        }
        offsets = moved
        var movedCarousels: [Int: Carousel] = [:]
        for (row, carousel) in carousels {
            if let new = newRow(row) { movedCarousels[new] = carousel }
        }
        carousels = movedCarousels
        var movedWants: [RowWant] = []
        for var want in wants {
            guard let new = newRow(want.row) else { continue }
            want.row = new
            movedWants.append(want)
        }
        movedWants.sort { $0.row < $1.row }
        wants = movedWants
        afterUpdates()
    }

    /// Replaces the layout after items were inserted, deleted or moved in row
    /// `row`'s carousel (the inner collection's `performBatchUpdates`): what
    /// the row asked for follows its items; a deleted item's is dropped
    /// without a cancel. The carousel keeps its offset, as a scroll view does.
    ///
    /// - Parameters:
    ///   - row: the row whose carousel changed.
    ///   - layout: the feed after the update.
    ///   - newItem: the index after the update of the item at an index before
    ///     it, or `nil` for a deleted item; it must answer with items of the row in `layout`.
    /// - Precondition: `row` is a row of both layouts.
    /// - Complexity: O(the row's wants) calls to `newItem`.
    public mutating func applyUpdates(inRow row: Int, layout: CarouselFeedLayout, newItem: (Int) -> Int?) {
        precondition(
            self.layout.rows.indices.contains(row) && layout.rows.indices.contains(row),
            "NestedPrefetchPlanner.applyUpdates(inRow:layout:newItem:): row \(row) is out of range")
        self.layout = layout
        rows.applyUpdates(layout: layout.outer) { $0 }
        if var carousel = carousels.removeValue(forKey: row), let carouselLayout = layout.carouselLayout(ofRow: row) {
            carousel.planner.applyUpdates(layout: carouselLayout) { path in
                newItem(path.item).map { ItemPath(item: $0, section: 0) }
            }
            carousel.items = carousel.planner.prefetchedPaths.map(\.item)
            // Its rest is another rest now: plan it again.
            carousel.lastFrame = nil
            carousels[row] = carousel
        }
        if let index = wants.firstIndex(where: { $0.row == row }) {
            var items: [Int] = []
            wants[index].forEach { item in
                if let new = newItem(item) { items.append(new) }
            }
            items.sort()
            wants[index] = RowWant(row: row, items: items)
        }
        afterUpdates()
    }

    /// The rows on screen as the rows planner moved them; the next frame plans afresh.
    private mutating func afterUpdates() {
        let visible = rows.visibleItems
        visibleRows = (visible.first?.item ?? 0)..<((visible.last?.item ?? -1) + 1)
        lastRowsFrame = nil
    }
}
