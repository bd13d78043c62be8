/// A table: sections of full-width rows, stacked top to bottom.
///
/// Rows have their own heights (a feed's posts) or one shared height (a
/// settings table). The rows of a section touch; each section starts
/// `sectionSpacing` below the end of the one before it, an empty section
/// taking no height but still its spacing; there is no spacing above the
/// first section or below the last. The content height is therefore the
/// `maxY` of the last row, plus one `sectionSpacing` per trailing empty
/// section.
///
/// Positions are running sums, computed once, so rounding never makes rows
/// overlap or part: a row's top is the boundary the row above it ends on, and
/// its frame's height is the difference of its two boundaries (the given
/// height up to rounding, and exactly it for heights like 44 or 60.5), so that
/// its `maxY`, top plus height, comes back to the next boundary. Rows of one
/// shared height are the exception: their tops are products,
/// `sectionTop + row · rowHeight`, so that nothing is stored per row, and
/// their heights are exact, while neighbours touch up to rounding.
///
/// ## Representation
///
/// Rows with their own heights store their boundaries: section `s`'s rows
/// have `count + 1` of them (each row's top, then the last row's bottom),
/// starting at index `itemStarts[s] + s`, one `Double` per row plus one per
/// section. Rows of one height store nothing per row. Either way
/// ``frame(at:)`` is O(1), and ``itemPaths(in:)`` is two binary searches (over
/// the non-empty sections, then over the rows of one section) followed by a
/// walk over the rows it returns.
public struct ListLayout: CollectionLayout {
    /// The width of every row, and of the content.
    public let width: Double

    /// The vertical gap between two consecutive sections.
    public let sectionSpacing: Double

    /// The layout's width, and the bottom of the last section.
    ///
    /// - Complexity: O(1).
    public let contentSize: Size

    /// The height of every row when they all share one; unused otherwise.
    let rowHeight: Double

    /// The rows' boundaries, section by section (see the type's discussion),
    /// or empty when all rows are `rowHeight` high.
    let boundaries: [Double]

    /// The y of each section's first row (of where it would be, when empty).
    let sectionTops: [Double]

    let sections: SectionTable

    /// Creates a list whose rows all have the same height.
    ///
    /// Stores nothing per row, so a list of any length costs O(sections).
    ///
    /// - Parameters:
    ///   - width: The width of the rows; greater than 0.
    ///   - rowHeight: The height of every row; finite and 0 or more.
    ///   - rowCounts: The number of rows of each section; 0 or more each.
    ///   - sectionSpacing: The gap between consecutive sections; 0 or more.
    /// - Complexity: O(sections).
    public init(width: Double, rowHeight: Double, rowCounts: [Int], sectionSpacing: Double = 0) {
        Self.validate(width: width, sectionSpacing: sectionSpacing)
        precondition(
            rowHeight.isFinite && rowHeight >= 0,
            "ListLayout: rowHeight must be finite and not negative, got \(rowHeight)")
        let sections = SectionTable(itemCounts: rowCounts, layoutName: "ListLayout")
        var tops: [Double] = []
        tops.reserveCapacity(rowCounts.count)
        // `bottom` is computed as the last row's frame computes its maxY, so that
        // the sections' bottoms, and the content height, are exactly those frames'.
        var bottom = 0.0
        for (section, count) in rowCounts.enumerated() {
            let top = section == 0 ? 0 : bottom + sectionSpacing
            tops.append(top)
            bottom = count == 0 ? top : top + Double(count - 1) * rowHeight + rowHeight
        }
        self.width = width
        self.sectionSpacing = sectionSpacing
        self.contentSize = Size(width: width, height: bottom)
        self.rowHeight = rowHeight
        self.boundaries = []
        self.sectionTops = tops
        self.sections = sections
    }

    /// Creates a list of one section whose rows all have the same height.
    ///
    /// - Complexity: O(1).
    public init(width: Double, rowHeight: Double, rowCount: Int) {
        self.init(width: width, rowHeight: rowHeight, rowCounts: [rowCount])
    }

    /// Creates a list whose rows have their own heights.
    ///
    /// - Parameters:
    ///   - width: The width of the rows; greater than 0.
    ///   - heights: The height of each row, section by section; finite and 0 or more each.
    ///   - sectionSpacing: The gap between consecutive sections; 0 or more.
    /// - Complexity: O(n + sections), where n is the number of rows; stores
    ///   one `Double` per row and per section.
    public init(width: Double, heights: [[Double]], sectionSpacing: Double = 0) {
        Self.validate(width: width, sectionSpacing: sectionSpacing)
        let sections = SectionTable(itemCounts: heights.map(\.count), layoutName: "ListLayout")
        var boundaries: [Double] = []
        boundaries.reserveCapacity(sections.totalItemCount + sections.numberOfSections)
        var tops: [Double] = []
        tops.reserveCapacity(sections.numberOfSections)
        var y = 0.0
        for (section, sectionHeights) in heights.enumerated() {
            if section > 0 { y += sectionSpacing }
            tops.append(y)
            boundaries.append(y)
            for (row, height) in sectionHeights.enumerated() {
                precondition(
                    height.isFinite && height >= 0,
                    "ListLayout: the height of row \(row) in section \(section) must be finite and not negative, got \(height)"
                )
                y += height
                boundaries.append(y)
            }
        }
        self.width = width
        self.sectionSpacing = sectionSpacing
        self.contentSize = Size(width: width, height: y)
        self.rowHeight = 0
        self.boundaries = boundaries
        self.sectionTops = tops
        self.sections = sections
    }

    /// Creates a list of one section whose rows have their own heights.
    ///
    /// - Complexity: O(n), where n is the number of rows.
    public init(width: Double, rowHeights: [Double]) {
        self.init(width: width, heights: [rowHeights])
    }

    private static func validate(width: Double, sectionSpacing: Double) {
        precondition(width.isFinite && width > 0, "ListLayout: width must be finite and greater than 0, got \(width)")
        precondition(
            sectionSpacing.isFinite && sectionSpacing >= 0,
            "ListLayout: sectionSpacing must be finite and not negative, got \(sectionSpacing)")
    }

    // MARK: - CollectionLayout

    /// - Complexity: O(1).
    public var numberOfSections: Int { sections.numberOfSections }

    /// - Complexity: O(1).
    public func numberOfItems(inSection section: Int) -> Int { sections.numberOfItems(inSection: section) }

    /// - Complexity: O(1).
    public var totalItemCount: Int { sections.totalItemCount }

    /// Always 1: every row takes the full width.
    public var columns: Int { 1 }

    /// The frame of the row at `path`: full width, from its top to the next row's.
    ///
    /// - Precondition: `path` is a valid item path.
    /// - Complexity: O(1): the row's flat index is its section's start plus
    ///   its item, and its boundaries are two array reads (or two products).
    public func frame(at path: ItemPath) -> Rect {
        rowFrame(flatIndex: sections.flatIndex(of: path), section: path.section)
    }

    /// The rows whose frames intersect `rect` (touching edges do not count),
    /// in ascending order.
    ///
    /// Finds the first non-empty section that ends below `rect.minY`, then
    /// its first such row, both by binary search, and walks down from there
    /// until a row starts at or below `rect.maxY`. Every row walked over is
    /// checked with `Rect.intersects`, so the answer is exactly the rows whose
    /// ``frame(at:)`` intersects `rect`.
    ///
    /// - Complexity: O(log s + log n + k), where s is the number of sections,
    ///   n the number of rows and k the number of rows returned (k + 2 rows
    ///   are visited at most, plus zero-height rows on `rect`'s edges).
    public func itemPaths(in rect: Rect) -> [ItemPath] {
        // Every row spans the full width, so a rect beside the content misses them all.
        // Written like `Rect.intersects`, so that a NaN coordinate misses too.
        guard rect.minX < width && 0 < rect.maxX, !rect.minY.isNaN, !rect.maxY.isNaN else { return [] }
        // A row's maxY is top + (bottom - top): its bottom boundary, unless
        // rounding says otherwise by a step. Searching for bottoms at or below
        // `rect.minY.nextDown` skips only rows whose maxY is at most `rect.minY`,
        // whichever way that subtraction rounds.
        let threshold = rect.minY.nextDown
        let occupied = sections.occupiedSections
        var position = LayoutSearch.partitionPoint(in: occupied.indices) {
            sectionBottom(occupied[$0]) >= threshold
        }
        guard position < occupied.count else { return [] }
        var section = occupied[position]
        var row = firstRow(inSection: section, withBottomAtLeast: threshold)
        var paths: [ItemPath] = []
        while true {
            let start = sections.itemStarts[section]
            let end = sections.itemStarts[section + 1]
            while row < end {
                let frame = rowFrame(flatIndex: row, section: section)
                // Tops only grow from here on: nothing further down can intersect.
                if !(frame.minY < rect.maxY) { return paths }
                if frame.intersects(rect) { paths.append(ItemPath(item: row - start, section: section)) }
                row += 1
            }
            position += 1
            guard position < occupied.count else { return paths }
            section = occupied[position]
            row = sections.itemStarts[section]
        }
    }

    /// - Complexity: O(1).
    public func flatIndex(of path: ItemPath) -> Int { sections.flatIndex(of: path) }

    /// - Complexity: O(log s), where s is the number of sections.
    public func itemPath(atFlatIndex index: Int) -> ItemPath { sections.itemPath(atFlatIndex: index) }

    // MARK: - Geometry

    /// The frame of flat row `index`, which belongs to `section`.
    func rowFrame(flatIndex index: Int, section: Int) -> Rect {
        guard boundaries.isEmpty else {
            let top = boundaries[index + section]
            return Rect(x: 0, y: top, width: width, height: boundaries[index + section + 1] - top)
        }
        let row = index - sections.itemStarts[section]
        return Rect(x: 0, y: sectionTops[section] + Double(row) * rowHeight, width: width, height: rowHeight)
    }

    /// The bottom of `section`'s last row (its top when it is empty).
    ///
    /// Non-decreasing in `section`, which is what lets ``itemPaths(in:)`` search
    /// the sections by it.
    func sectionBottom(_ section: Int) -> Double {
        let end = sections.itemStarts[section + 1]
        guard boundaries.isEmpty else { return boundaries[end + section] }
        let count = end - sections.itemStarts[section]
        let top = sectionTops[section]
        return count == 0 ? top : top + Double(count - 1) * rowHeight + rowHeight
    }

    /// The flat index of the first row of `section` whose bottom is at least
    /// `y`, or the end of the section.
    func firstRow(inSection section: Int, withBottomAtLeast y: Double) -> Int {
        let start = sections.itemStarts[section]
        let rows = start..<sections.itemStarts[section + 1]
        guard boundaries.isEmpty else {
            return LayoutSearch.partitionPoint(in: rows) { boundaries[$0 + section + 1] >= y }
        }
        // One height: the row whose bottom is y is found by division, and
        // checked against the exact bottoms around it.
        let top = sectionTops[section]
        return LayoutSearch.partitionPoint(in: rows, near: Double(start) + (y - top) / rowHeight - 1) {
            top + Double($0 - start) * rowHeight + rowHeight >= y
        }
    }
}
