// A ``CollectionLayout`` built from the frames a ``PrefetchLayoutSource``
// reported around the viewport: how the planner, which needs a Sendable
// layout it can query at will, plans for a main-actor `UICollectionViewLayout`.

/// The frames of the items in one band of the content, as a layout.
///
/// The counts and the content size are the source's; frames are known inside
/// `band`. Outside it, `itemPaths(in:)` knows no item and `frame(at:)`
/// extrapolates from the band's average row pitch — above the band for items
/// before it, below for items after it — so that a policy still sees far
/// items as far. The ``PrefetchCoordinator`` keeps the band wider than any
/// policy looks (``PrefetchCoordinator/sampledScreens``) and samples again
/// before the viewport nears its edge.
///
/// ## Invariants
/// - `byMinY` holds every sampled item once, ascending by `minY`.
/// - Every sampled path is valid for `sections`.
package struct SampledLayout: CollectionLayout {
    package let contentSize: Size
    let sections: SectionTable
    /// The rectangle whose items were sampled.
    package let band: Rect
    private let byMinY: [ItemFrame]
    private let tallestItem: Double
    private let rowPitch: Double
    private let flatRange: ClosedRange<Int>?
    /// The sampled frames by flat index, from `flatRange`'s lower bound
    /// (`nil`: a gap): what `frame(at:)` reads, without hashing a path.
    private let framesByFlat: [Rect?]
    package let columns: Int

    /// The same frames with `axis` as `y` (``ScrollAxis/alongScroll(_:)-rect``):
    /// a horizontal view's sample, as its coordinator plans it.
    package func alongScroll(_ axis: ScrollAxis) -> SampledLayout {
        guard axis == .horizontal else { return self }
        return SampledLayout(
            contentSize: axis.alongScroll(contentSize), itemCounts: itemCounts, band: axis.alongScroll(band),
            reported: byMinY.map { ItemFrame(path: $0.path, frame: axis.alongScroll($0.frame)) })
    }

    /// The number of items in each section, as sampled.
    package var itemCounts: [Int] {
        (0..<numberOfSections).map { numberOfItems(inSection: $0) }
    }

    /// A layout with no items, before the first frame.
    package static let empty = SampledLayout(contentSize: .zero, itemCounts: [], band: .zero, reported: [])

    /// Keeps the reported frames that are valid — a path in range, a finite
    /// rectangle — and drops the others: a layout and its data source may
    /// briefly disagree during an update, and that must not trap.
    ///
    /// - Complexity: O(sections + k + r) for k frames over r flat indices
    ///   (O(k log k) more when the rows are not in path order).
    package init(contentSize: Size, itemCounts: [Int], band: Rect, reported: [ItemFrame]) {
        self.contentSize = contentSize
        let sections = SectionTable(itemCounts: itemCounts.map { max(0, $0) }, layoutName: "SampledLayout")
        self.sections = sections
        self.band = band
        // By flat index, a later report of a path replacing an earlier one:
        // no dictionary, and rows come out in path order, which is already
        // by `minY` for a list or a grid (sampling is a frame's largest cost).
        var valid: [(flat: Int, frame: Rect)] = []
        valid.reserveCapacity(reported.count)
        for item in reported {
            let path = item.path
            let rect = item.frame
            guard path.section >= 0, path.section < itemCounts.count, path.item >= 0,
                path.item < sections.numberOfItems(inSection: path.section),
                rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite,
                rect.width >= 0, rect.height >= 0
            else { continue }
            valid.append((sections.flatIndex(of: path), rect))
        }
        guard let low = valid.lazy.map(\.flat).min(), let high = valid.lazy.map(\.flat).max() else {
            self.byMinY = []
            self.tallestItem = 0
            self.columns = 1
            self.flatRange = nil
            self.framesByFlat = []
            self.rowPitch = max(1, contentSize.height / Double(max(1, sections.totalItemCount)))
            return
        }
        var byFlat = [Rect?](repeating: nil, count: high - low + 1)
        for (flat, rect) in valid { byFlat[flat - low] = rect }
        var sorted: [ItemFrame] = []
        sorted.reserveCapacity(valid.count)
        var isSorted = true
        for (offset, rect) in byFlat.enumerated() {
            guard let rect else { continue }
            let item = ItemFrame(path: sections.itemPath(atFlatIndex: low + offset), frame: rect)
            if let last = sorted.last, last.frame.minY > rect.minY { isSorted = false }
            sorted.append(item)
        }
        if !isSorted { sorted.sort { ($0.frame.minY, $0.path) < ($1.frame.minY, $1.path) } }
        self.byMinY = sorted
        self.tallestItem = sorted.lazy.map(\.frame.height).max() ?? 0
        let firstRowY = sorted[0].frame.minY
        let columns = max(1, sorted.prefix { $0.frame.minY == firstRowY }.count)
        self.columns = columns
        flatRange = low...high
        framesByFlat = byFlat
        let rows = Double((high - low) / columns + 1)
        let bottom = sorted.lazy.map(\.frame.maxY).max() ?? 0
        rowPitch = max(1, (bottom - firstRowY) / rows)
    }

    package var numberOfSections: Int { sections.numberOfSections }
    package func numberOfItems(inSection section: Int) -> Int { sections.numberOfItems(inSection: section) }
    package var totalItemCount: Int { sections.totalItemCount }
    package func flatIndex(of path: ItemPath) -> Int { sections.flatIndex(of: path) }
    package func itemPath(atFlatIndex index: Int) -> ItemPath { sections.itemPath(atFlatIndex: index) }

    /// The sampled frame, or one extrapolated outside the band.
    ///
    /// - Complexity: O(1).
    package func frame(at path: ItemPath) -> Rect {
        let flat = sections.flatIndex(of: path)
        if let flatRange, flatRange.contains(flat), let frame = framesByFlat[flat - flatRange.lowerBound] {
            return frame
        }
        let width = contentSize.width / Double(columns)
        guard let flatRange, let first = byMinY.first else {
            return Rect(x: 0, y: Double(flat / columns) * rowPitch, width: width, height: rowPitch)
        }
        let x = Double(flat % columns) * width
        if flat < flatRange.lowerBound {
            let rows = Double((flatRange.lowerBound - flat + columns - 1) / columns)
            return Rect(x: x, y: first.frame.minY - rows * rowPitch, width: width, height: rowPitch)
        }
        // After the band, or a gap inside it: below everything sampled.
        let rows = Double((flat - flatRange.upperBound + columns - 1) / columns)
        let bottom = max(band.maxY, byMinY.last.map(\.frame.maxY) ?? 0)
        return Rect(x: x, y: bottom + max(0, rows - 1) * rowPitch, width: width, height: rowPitch)
    }

    /// The sampled items intersecting `rect`, ascending.
    ///
    /// - Complexity: O(log k + m), m the items whose top lies within the
    ///   tallest item's height above `rect` (O(m log m) when the rows' order
    ///   is not the paths').
    package func itemPaths(in rect: Rect) -> [ItemPath] {
        let start = LayoutSearch.partitionPoint(in: byMinY.indices) { index in
            byMinY[index].frame.minY > rect.minY - tallestItem
        }
        var paths: [ItemPath] = []
        var index = start
        while index < byMinY.count, byMinY[index].frame.minY < rect.maxY {
            if byMinY[index].frame.intersects(rect) { paths.append(byMinY[index].path) }
            index += 1
        }
        // Rows of a list or a grid come out in path order already: sorted only when not.
        for index in paths.indices.dropFirst() where paths[index] < paths[index - 1] { return paths.sorted() }
        return paths
    }
}
