/// A grid: sections of equally sized items, `columns` to a row, rows stacked
/// top to bottom (a photo library).
///
/// Item `i` of a section sits in row `i / columns` and column `i % columns`:
///
///     x = column · (itemWidth + spacing)
///     y = sectionTop + row · (itemHeight + spacing)
///
/// `spacing` separates both columns and rows; the columns fill the width
/// exactly. Each section starts a new row, `sectionSpacing` below the bottom
/// of the last row of the section before it; an empty section takes no height
/// but still its spacing, and there is no spacing above the first section or
/// below the last. The content height is therefore the `maxY` of the last
/// row, plus one `sectionSpacing` per trailing empty section.
///
/// Adjacent frames touch (or sit `spacing` apart) up to floating-point
/// rounding: the positions are products, not running sums, so rounding never
/// accumulates down the grid.
///
/// ## Representation
///
/// Only the top of each section is stored; everything else is arithmetic. A
/// rectangle's rows and columns are found by dividing by the pitch and
/// checking the guess against the exact frame edges around it, so
/// ``itemPaths(in:)`` answers exactly the items whose ``frame(at:)``
/// intersects the rectangle, however the divisions round.
public struct UniformGridLayout: CollectionLayout {
    /// The width of the content, which the columns fill.
    public let width: Double

    /// Items per row.
    public let columns: Int

    /// The size of every item.
    public let itemSize: Size

    /// The gap between columns, and between rows.
    public let spacing: Double

    /// The vertical gap between consecutive sections.
    public let sectionSpacing: Double

    /// The layout's width, and the bottom of the last section.
    ///
    /// - Complexity: O(1).
    public let contentSize: Size

    let sections: SectionTable

    /// The y of each section's first row (of where it would be, when empty).
    let sectionTops: [Double]

    /// `itemSize.width + spacing`: from one column's x to the next.
    let columnPitch: Double

    /// `itemSize.height + spacing`: from one row's y to the next.
    let rowPitch: Double

    /// Creates a grid whose items have the given aspect ratio.
    ///
    /// - Parameters:
    ///   - width: The width of the content; greater than 0.
    ///   - columns: Items per row; at least 1.
    ///   - itemCounts: The number of items of each section; 0 or more each.
    ///   - spacing: The gap between columns and between rows; 0 or more, and
    ///     small enough to leave room for the items.
    ///   - aspectRatio: An item's width divided by its height; greater than 0.
    ///   - sectionSpacing: The gap between consecutive sections; 0 or more.
    /// - Complexity: O(sections).
    public init(
        width: Double, columns: Int, itemCounts: [Int], spacing: Double = 0, aspectRatio: Double = 1,
        sectionSpacing: Double = 0
    ) {
        precondition(
            aspectRatio.isFinite && aspectRatio > 0,
            "UniformGridLayout: aspectRatio must be finite and greater than 0, got \(aspectRatio)")
        let itemWidth = Self.itemWidth(width: width, columns: columns, spacing: spacing)
        self.init(
            width: width, columns: columns, itemHeight: itemWidth / aspectRatio, itemCounts: itemCounts,
            spacing: spacing, sectionSpacing: sectionSpacing)
    }

    /// Creates a grid of one section whose items have the given aspect ratio.
    ///
    /// - Complexity: O(1).
    public init(width: Double, columns: Int, itemCount: Int, spacing: Double = 0, aspectRatio: Double = 1) {
        self.init(width: width, columns: columns, itemCounts: [itemCount], spacing: spacing, aspectRatio: aspectRatio)
    }

    /// Creates a grid whose items have the given height.
    ///
    /// - Parameters:
    ///   - width: The width of the content; greater than 0.
    ///   - columns: Items per row; at least 1.
    ///   - itemHeight: The height of every item; finite and 0 or more.
    ///   - itemCounts: The number of items of each section; 0 or more each.
    ///   - spacing: The gap between columns and between rows; 0 or more, and
    ///     small enough to leave room for the items.
    ///   - sectionSpacing: The gap between consecutive sections; 0 or more.
    /// - Complexity: O(sections).
    public init(
        width: Double, columns: Int, itemHeight: Double, itemCounts: [Int], spacing: Double = 0,
        sectionSpacing: Double = 0
    ) {
        let itemWidth = Self.itemWidth(width: width, columns: columns, spacing: spacing)
        precondition(
            itemHeight.isFinite && itemHeight >= 0,
            "UniformGridLayout: itemHeight must be finite and not negative, got \(itemHeight)")
        precondition(
            sectionSpacing.isFinite && sectionSpacing >= 0,
            "UniformGridLayout: sectionSpacing must be finite and not negative, got \(sectionSpacing)")
        let sections = SectionTable(itemCounts: itemCounts, layoutName: "UniformGridLayout")
        let rowPitch = itemHeight + spacing
        var tops: [Double] = []
        tops.reserveCapacity(sections.numberOfSections)
        // `bottom` is computed as the last row's frame computes its maxY, so that
        // the sections' bottoms, and the content height, are exactly those frames'.
        var bottom = 0.0
        for section in 0..<sections.numberOfSections {
            let top = section == 0 ? 0 : bottom + sectionSpacing
            tops.append(top)
            let rows = Self.rowCount(items: sections.numberOfItems(inSection: section), columns: columns)
            bottom = rows == 0 ? top : top + Double(rows - 1) * rowPitch + itemHeight
        }
        self.width = width
        self.columns = columns
        self.itemSize = Size(width: itemWidth, height: itemHeight)
        self.spacing = spacing
        self.sectionSpacing = sectionSpacing
        self.contentSize = Size(width: width, height: bottom)
        self.sections = sections
        self.sectionTops = tops
        self.columnPitch = itemWidth + spacing
        self.rowPitch = rowPitch
    }

    /// Validates the horizontal parameters and returns the width they leave each item.
    private static func itemWidth(width: Double, columns: Int, spacing: Double) -> Double {
        precondition(
            width.isFinite && width > 0, "UniformGridLayout: width must be finite and greater than 0, got \(width)")
        precondition(columns >= 1, "UniformGridLayout: columns must be at least 1, got \(columns)")
        precondition(
            spacing.isFinite && spacing >= 0,
            "UniformGridLayout: spacing must be finite and not negative, got \(spacing)")
        let itemWidth = (width - spacing * Double(columns - 1)) / Double(columns)
        precondition(
            itemWidth > 0,
            "UniformGridLayout: a spacing of \(spacing) leaves no room for \(columns) columns in a width of \(width)")
        return itemWidth
    }

    static func rowCount(items: Int, columns: Int) -> Int {
        items / columns + (items % columns == 0 ? 0 : 1)
    }

    // MARK: - CollectionLayout

    /// - Complexity: O(1).
    public var numberOfSections: Int { sections.numberOfSections }

    /// - Complexity: O(1).
    public func numberOfItems(inSection section: Int) -> Int { sections.numberOfItems(inSection: section) }

    /// - Complexity: O(1).
    public var totalItemCount: Int { sections.totalItemCount }

    /// The frame of the item at `path`.
    ///
    /// - Precondition: `path` is a valid item path.
    /// - Complexity: O(1): a division for the row and column, and two products.
    public func frame(at path: ItemPath) -> Rect {
        _ = sections.flatIndex(of: path)  // validates the path
        let row = path.item / columns
        let column = path.item % columns
        return Rect(
            x: Double(column) * columnPitch, y: sectionTops[path.section] + Double(row) * rowPitch,
            width: itemSize.width, height: itemSize.height)
    }

    /// The items whose frames intersect `rect` (touching edges do not count),
    /// in ascending order.
    ///
    /// Items only partly inside `rect` count, and a rectangle narrower than
    /// the grid can leave columns out. The columns and, per section, the rows
    /// that intersect `rect` are two contiguous ranges (every frame edge grows
    /// with its row and its column), found by division and checked against
    /// the exact edges that ``frame(at:)`` computes; the sections by binary
    /// search over the non-empty ones.
    ///
    /// - Complexity: O(log s + k + t), where s is the number of sections, k the
    ///   number of items returned and t the number of sections `rect` spans
    ///   vertically (a section is visited even when its rows in the range lack
    ///   the columns asked for, as a short last row can).
    public func itemPaths(in rect: Rect) -> [ItemPath] {
        // Each predicate negates, or is, one clause of `Rect.intersects`, so that
        // the ranges hold exactly the frames it accepts (NaN included).
        let itemWidth = itemSize.width
        let itemHeight = itemSize.height
        let allColumns = 0..<columns
        let firstColumn = LayoutSearch.partitionPoint(in: allColumns, near: rect.minX / columnPitch - 1) {
            rect.minX < Double($0) * columnPitch + itemWidth
        }
        let endColumn = LayoutSearch.partitionPoint(in: allColumns, near: rect.maxX / columnPitch) {
            !(Double($0) * columnPitch < rect.maxX)
        }
        guard firstColumn < endColumn else { return [] }

        let occupied = sections.occupiedSections
        var position = LayoutSearch.partitionPoint(in: occupied.indices) {
            rect.minY < sectionBottom(occupied[$0])
        }
        var paths: [ItemPath] = []
        while position < occupied.count {
            let section = occupied[position]
            let top = sectionTops[section]
            // Tops only grow from here on: nothing further down can intersect.
            guard top < rect.maxY else { break }
            let count = sections.itemStarts[section + 1] - sections.itemStarts[section]
            let rows = 0..<Self.rowCount(items: count, columns: columns)
            let firstRow = LayoutSearch.partitionPoint(in: rows, near: (rect.minY - top) / rowPitch - 1) {
                rect.minY < top + Double($0) * rowPitch + itemHeight
            }
            let endRow = LayoutSearch.partitionPoint(in: rows, near: (rect.maxY - top) / rowPitch) {
                !(top + Double($0) * rowPitch < rect.maxY)
            }
            for row in firstRow..<max(firstRow, endRow) {
                let rowStart = row * columns
                // The last row can be short of the columns asked for.
                let end = min(rowStart + endColumn, count)
                var item = rowStart + firstColumn
                while item < end {
                    paths.append(ItemPath(item: item, section: section))
                    item += 1
                }
            }
            position += 1
        }
        return paths
    }

    /// - Complexity: O(1).
    public func flatIndex(of path: ItemPath) -> Int { sections.flatIndex(of: path) }

    /// - Complexity: O(log s), where s is the number of sections.
    public func itemPath(atFlatIndex index: Int) -> ItemPath { sections.itemPath(atFlatIndex: index) }

    // MARK: - Geometry

    /// The maxY of `section`'s last row (its top when it is empty), computed as
    /// ``frame(at:)`` computes it.
    ///
    /// Non-decreasing in `section`, which is what lets ``itemPaths(in:)`` search
    /// the sections by it.
    func sectionBottom(_ section: Int) -> Double {
        let count = sections.itemStarts[section + 1] - sections.itemStarts[section]
        let rows = Self.rowCount(items: count, columns: columns)
        let top = sectionTops[section]
        return rows == 0 ? top : top + Double(rows - 1) * rowPitch + itemSize.height
    }
}
