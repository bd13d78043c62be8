/// The position of an item: its section and its index within the section.
///
/// UIKit's `IndexPath` (`section`, `item`, `row`), as a plain value type the
/// core can use on every platform. Ordered by section, then item.
public struct ItemPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var section: Int
    public var item: Int

    public init(item: Int, section: Int) {
        self.section = section
        self.item = item
    }

    /// The table view name for `item`.
    public init(row: Int, section: Int) {
        self.init(item: row, section: section)
    }

    /// The table view name for `item`.
    public var row: Int { item }

    public static func < (lhs: ItemPath, rhs: ItemPath) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    public var description: String { "[\(section), \(item)]" }
}
