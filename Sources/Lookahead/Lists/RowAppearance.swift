// Where a SwiftUI list is, before iOS 18: only the rows SwiftUI makes —
// appearing a little ahead of the screen, disappearing a little after — say
// so. Pure: KeyedRows and the simulator's `swiftui` strategy keep one each.

/// The rows a lazy SwiftUI container has made, and the offset they say the
/// list is at: the top of the first one.
package struct RowAppearance: Sendable, Equatable {
    private var shown: Set<Int> = []

    package init() {}

    /// Row `item` appeared (`isShown`) or disappeared.
    package mutating func row(_ item: Int, isShown: Bool) {
        if isShown { shown.insert(item) } else { shown.remove(item) }
    }

    /// Forgets the rows at `count` and beyond (the list got shorter).
    package mutating func keep(below count: Int) {
        shown = shown.filter { $0 < count }
    }

    /// The rows shown now.
    package var rows: Set<Int> { shown }

    /// Where the list is: the top of the first row shown in `layout`, or
    /// `nil` while none is.
    package func offset(in layout: some CollectionLayout) -> Double? {
        guard let first = shown.min(), first < layout.totalItemCount else { return nil }
        return layout.frame(at: layout.itemPath(atFlatIndex: first)).minY
    }
}
