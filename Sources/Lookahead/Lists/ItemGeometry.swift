// A SwiftUI list's or grid's shape as the app already describes it to
// SwiftUI — columns, spacing, an aspect ratio or a row height — from which,
// with the width SwiftUI gives it and the number of items, the coordinator
// knows where every row is.

/// The shape of a SwiftUI `LazyVGrid` or `LazyVStack`: what a coordinator
/// plans a SwiftUI scroll view with, given its width and items.
///
/// Describe it as you describe the grid to SwiftUI:
/// `LazyVGrid(columns: Array(repeating: GridItem(.flexible(), spacing: 2), count: 3), spacing: 2)`
/// of square cells is `.grid(columns: 3, spacing: 2, aspectRatio: 1)`.
public struct ItemGeometry: Sendable, Hashable {
    enum Kind: Hashable {
        case grid(columns: Int, spacing: Double, aspectRatio: Double)
        case rows(height: Double, spacing: Double)
    }

    let kind: Kind
    /// The height of what sits above the items inside the scroll view (a
    /// header, the stack's padding): where the first row starts.
    public var headerHeight: Double

    /// A grid of `columns` equal columns `spacing` apart (and rows as far),
    /// whose cells are `aspectRatio` times as wide as they are high.
    ///
    /// - Precondition: `columns` is at least 1; `spacing` is finite and not
    ///   negative; `aspectRatio` is finite and greater than 0.
    public static func grid(columns: Int, spacing: Double = 0, aspectRatio: Double = 1) -> ItemGeometry {
        precondition(columns >= 1, "ItemGeometry.grid: columns must be at least 1, got \(columns)")
        precondition(
            spacing.isFinite && spacing >= 0, "ItemGeometry.grid: spacing must be finite and 0 or more, got \(spacing)")
        precondition(
            aspectRatio.isFinite && aspectRatio > 0,
            "ItemGeometry.grid: aspectRatio must be finite and greater than 0, got \(aspectRatio)")
        return ItemGeometry(kind: .grid(columns: columns, spacing: spacing, aspectRatio: aspectRatio), headerHeight: 0)
    }

    /// Rows of `height` points, `spacing` apart: a `LazyVStack` or a `List`
    /// of rows of one height (for rows whose heights vary, give their typical one).
    ///
    /// - Precondition: `height` is finite and greater than 0; `spacing` finite and not negative.
    public static func rows(height: Double, spacing: Double = 0) -> ItemGeometry {
        precondition(
            height.isFinite && height > 0, "ItemGeometry.rows: height must be finite and greater than 0, got \(height)")
        precondition(
            spacing.isFinite && spacing >= 0, "ItemGeometry.rows: spacing must be finite and 0 or more, got \(spacing)")
        return ItemGeometry(kind: .rows(height: height, spacing: spacing), headerHeight: 0)
    }

    /// The same shape below a header `height` points tall.
    public func header(_ height: Double) -> ItemGeometry {
        precondition(height.isFinite && height >= 0, "ItemGeometry.header: height must be finite and 0 or more")
        var geometry = self
        geometry.headerHeight = height
        return geometry
    }

    /// The layout of `itemCount` items `width` points wide, in the scroll
    /// view's coordinates (the header above them).
    package func layout(width: Double, itemCount: Int) -> any CollectionLayout {
        let width = max(width, 1)
        let base: any CollectionLayout
        switch kind {
        case .grid(let columns, let spacing, let aspectRatio):
            // A spacing that leaves no room for the columns (a width not yet measured) is dropped.
            let fits = Double(columns - 1) * spacing < width
            base = UniformGridLayout(
                width: width, columns: columns, itemCount: itemCount, spacing: fits ? spacing : 0,
                aspectRatio: aspectRatio)
        case .rows(let height, let spacing):
            base = ListLayout(width: width, rowHeight: height + spacing, rowCount: itemCount)
        }
        return headerHeight == 0 ? base : OffsetLayout(base: base, top: headerHeight)
    }
}

/// A layout moved down by `top`: the items below a header.
struct OffsetLayout: CollectionLayout {
    let base: any CollectionLayout
    let top: Double

    var contentSize: Size { Size(width: base.contentSize.width, height: base.contentSize.height + top) }
    var numberOfSections: Int { base.numberOfSections }
    var totalItemCount: Int { base.totalItemCount }
    var columns: Int { base.columns }
    func numberOfItems(inSection section: Int) -> Int { base.numberOfItems(inSection: section) }
    func frame(at path: ItemPath) -> Rect {
        let frame = base.frame(at: path)
        return Rect(x: frame.minX, y: frame.minY + top, width: frame.width, height: frame.height)
    }
    func itemPaths(in rect: Rect) -> [ItemPath] {
        base.itemPaths(in: Rect(x: rect.minX, y: rect.minY - top, width: rect.width, height: rect.height))
    }
    func flatIndex(of path: ItemPath) -> Int { base.flatIndex(of: path) }
    func itemPath(atFlatIndex index: Int) -> ItemPath { base.itemPath(atFlatIndex: index) }
}
