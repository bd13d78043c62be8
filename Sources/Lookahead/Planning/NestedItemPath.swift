/// An item of a ``CarouselFeedLayout``: its row in the feed and its place in
/// the row (0 for a row that is a plain cell).
public struct NestedItemPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The row in the feed.
    public var row: Int
    /// The item in the row's carousel; 0 for a plain cell.
    public var item: Int

    /// Creates a path.
    @inlinable
    public init(row: Int, item: Int) {
        self.row = row
        self.item = item
    }

    public static func < (lhs: NestedItemPath, rhs: NestedItemPath) -> Bool {
        (lhs.row, lhs.item) < (rhs.row, rhs.item)
    }

    public var description: String { "[\(row), \(item)]" }
}
