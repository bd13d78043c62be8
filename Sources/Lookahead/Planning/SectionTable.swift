/// The item counts of a layout's sections, and the numbering of their items
/// in one flat sequence.
///
/// Keeps the flat start of every section, so that a path's flat index is one
/// addition, and the list of the non-empty sections, so that searches and
/// walks across sections never step over empty ones: a million empty sections
/// cost nothing per query.
struct SectionTable: Sendable {
    /// `itemStarts[s]` is the flat index of section `s`'s first item;
    /// `itemStarts[numberOfSections]` is the total item count.
    let itemStarts: [Int]

    /// The sections with at least one item, ascending.
    let occupiedSections: [Int]

    /// - Complexity: O(sections).
    init(itemCounts: [Int], layoutName: String) {
        var starts: [Int] = []
        starts.reserveCapacity(itemCounts.count + 1)
        var occupied: [Int] = []
        var total = 0
        for (section, count) in itemCounts.enumerated() {
            precondition(count >= 0, "\(layoutName): section \(section) has a negative item count, \(count)")
            starts.append(total)
            if count > 0 { occupied.append(section) }
            let (sum, overflow) = total.addingReportingOverflow(count)
            precondition(!overflow, "\(layoutName): the item counts overflow Int")
            total = sum
        }
        starts.append(total)
        self.itemStarts = starts
        self.occupiedSections = occupied
    }

    var numberOfSections: Int { itemStarts.count - 1 }

    var totalItemCount: Int { itemStarts[itemStarts.count - 1] }

    func numberOfItems(inSection section: Int) -> Int {
        precondition(
            section >= 0 && section < numberOfSections,
            "section \(section) is out of bounds (\(numberOfSections) sections)")
        return itemStarts[section + 1] - itemStarts[section]
    }

    func flatIndex(of path: ItemPath) -> Int {
        let count = numberOfItems(inSection: path.section)
        precondition(
            path.item >= 0 && path.item < count,
            "item path \(path) is out of bounds (section \(path.section) has \(count) items)")
        return itemStarts[path.section] + path.item
    }

    /// The last non-empty section starting at or before `index` is the one
    /// holding it; searching the non-empty sections only makes it unique.
    func itemPath(atFlatIndex index: Int) -> ItemPath {
        precondition(
            index >= 0 && index < totalItemCount,
            "flat index \(index) is out of bounds (\(totalItemCount) items)")
        let position =
            LayoutSearch.partitionPoint(in: occupiedSections.indices) {
                itemStarts[occupiedSections[$0]] > index
            } - 1
        let section = occupiedSections[position]
        return ItemPath(item: index - itemStarts[section], section: section)
    }
}
