/// Where the items of a vertically scrolling list or grid are.
///
/// Layouts answer the two questions prefetching asks every frame — which items
/// intersect this rectangle, and where is this item — in time that follows
/// the answer, not the number of items: a million-item list costs no more per
/// frame than a hundred-item one.
///
/// Items are also numbered in one flat sequence across sections (section 0's
/// items first), so that policies can count "the next N items" without
/// caring about section boundaries.
public protocol CollectionLayout: Sendable {
    /// The size of everything laid out.
    var contentSize: Size { get }

    /// The number of sections.
    var numberOfSections: Int { get }

    /// The number of items in `section`.
    func numberOfItems(inSection section: Int) -> Int

    /// The number of items in every section together.
    var totalItemCount: Int { get }

    /// Items per row: 1 for a list, the column count for a grid.
    var columns: Int { get }

    /// The frame of the item at `path`.
    ///
    /// - Precondition: `path` is a valid item path.
    /// - Complexity: O(1) or O(log n).
    func frame(at path: ItemPath) -> Rect

    /// The items whose frames intersect `rect`, in ascending order.
    ///
    /// - Complexity: O(log n + k), where k is the number of items returned.
    func itemPaths(in rect: Rect) -> [ItemPath]

    /// The position of `path` in the flat sequence of all items.
    ///
    /// - Complexity: O(1) or O(log sections).
    func flatIndex(of path: ItemPath) -> Int

    /// The item at position `index` of the flat sequence.
    ///
    /// - Precondition: `0 <= index < totalItemCount`.
    /// - Complexity: O(1) or O(log sections).
    func itemPath(atFlatIndex index: Int) -> ItemPath
}
