/// Where each item of a list goes in a batch of inserts, deletes and moves,
/// by UIKit's rules for `performBatchUpdates`.
///
/// Deletes and move sources are index paths *before* the update, inserts and
/// move destinations index paths *after* it. Every other item keeps its
/// section and its order among the items that stay: it takes, in order, the
/// slots of the new section that no insert or move fills.
///
/// The mapping is computed per query from the updates alone, never from the
/// items, so a batch costs O(u log u) to prepare and O(log u + u) per index
/// path asked about, for u updates, whatever the length of the list: the
/// views only ask about their visible cells and the prefetch window.

import Lookahead

struct BatchUpdateMapping: Sendable {
    /// An item moved from `from` (before the update) to `to` (after it).
    struct Move: Hashable, Sendable {
        var from: ItemPath
        var to: ItemPath
    }

    /// An update that does not add up, described as UIKit's
    /// `NSInternalInconsistencyException` describes it.
    struct InvalidUpdate: Error, CustomStringConvertible {
        var description: String
    }

    /// Per section, the items before the update that were deleted or moved
    /// away, ascending.
    private let vacated: [Int: [Int]]
    /// Per section, the slots after the update that inserts or moves fill, ascending.
    private let filled: [Int: [Int]]
    private let deleted: Set<ItemPath>
    private let destinations: [ItemPath: ItemPath]

    /// Validates a batch and prepares its mapping.
    ///
    /// - Parameters:
    ///   - oldCounts: the item count of each section before the update.
    ///   - newCounts: the item count of each section after it, as the data
    ///     source reports it.
    ///   - noun: "item" or "row", for the error messages.
    /// - Throws: ``InvalidUpdate`` when an index path is out of range, an item
    ///   is named twice, the sections changed, or the counts do not add up.
    /// - Complexity: O(s + u log u) for s sections and u updates.
    init(
        oldCounts: [Int], newCounts: [Int], deletes: [ItemPath], inserts: [ItemPath], moves: [Move],
        noun: String = "item"
    ) throws(InvalidUpdate) {
        guard oldCounts.count == newCounts.count else {
            throw InvalidUpdate(
                description: "Invalid update: invalid number of sections. The number of sections after the update "
                    + "(\(newCounts.count)) must be equal to the number of sections before the update "
                    + "(\(oldCounts.count)); inserting or deleting sections is not supported, call reloadData()")
        }
        var vacated: [Int: [Int]] = [:]
        var filled: [Int: [Int]] = [:]
        var deleted: Set<ItemPath> = []
        var destinations: [ItemPath: ItemPath] = [:]
        var vacatedPaths: Set<ItemPath> = []
        var filledPaths: Set<ItemPath> = []

        func check(_ path: ItemPath, in counts: [Int], _ verb: String, _ when: String) throws(InvalidUpdate) {
            guard path.section >= 0 && path.section < counts.count else {
                throw InvalidUpdate(
                    description: "Invalid update: attempt to \(verb) \(noun) \(path.item) in section \(path.section), "
                        + "but there are only \(counts.count) sections \(when) the update")
            }
            guard path.item >= 0 && path.item < counts[path.section] else {
                throw InvalidUpdate(
                    description: "Invalid update: attempt to \(verb) \(noun) \(path.item) in section \(path.section), "
                        + "which only contains \(counts[path.section]) \(noun)s \(when) the update")
            }
        }

        func claimOnce(_ path: ItemPath, in claimed: inout Set<ItemPath>, _ verb: String) throws(InvalidUpdate) {
            guard claimed.insert(path).inserted else {
                throw InvalidUpdate(
                    description: "Invalid update: attempt to \(verb) \(noun) \(path.item) in section \(path.section) "
                        + "more than once")
            }
        }

        for path in deletes {
            try check(path, in: oldCounts, "delete", "before")
            try claimOnce(path, in: &vacatedPaths, "delete")
            deleted.insert(path)
            vacated[path.section, default: []].append(path.item)
        }
        for path in inserts {
            try check(path, in: newCounts, "insert", "after")
            try claimOnce(path, in: &filledPaths, "insert")
            filled[path.section, default: []].append(path.item)
        }
        for move in moves {
            try check(move.from, in: oldCounts, "move", "before")
            try check(move.to, in: newCounts, "move to", "after")
            guard vacatedPaths.insert(move.from).inserted else {
                throw InvalidUpdate(
                    description: "Invalid update: attempt to move \(noun) \(move.from.item) in section "
                        + "\(move.from.section), which is also deleted or moved elsewhere")
            }
            guard filledPaths.insert(move.to).inserted else {
                throw InvalidUpdate(
                    description: "Invalid update: attempt to move a \(noun) to \(noun) \(move.to.item) in section "
                        + "\(move.to.section), which an insert or another move also fills")
            }
            destinations[move.from] = move.to
            vacated[move.from.section, default: []].append(move.from.item)
            filled[move.to.section, default: []].append(move.to.item)
        }

        var tally: [Int: (inserted: Int, deleted: Int, movedIn: Int, movedOut: Int)] = [:]
        for path in inserts { tally[path.section, default: (0, 0, 0, 0)].inserted += 1 }
        for path in deletes { tally[path.section, default: (0, 0, 0, 0)].deleted += 1 }
        for move in moves where move.from.section != move.to.section {
            tally[move.to.section, default: (0, 0, 0, 0)].movedIn += 1
            tally[move.from.section, default: (0, 0, 0, 0)].movedOut += 1
        }
        for section in oldCounts.indices {
            let (inserted, removed, movedIn, movedOut) = tally[section] ?? (0, 0, 0, 0)
            let expected = oldCounts[section] + inserted - removed + movedIn - movedOut
            guard newCounts[section] == expected else {
                throw InvalidUpdate(
                    description: "Invalid update: invalid number of \(noun)s in section \(section). The number of "
                        + "\(noun)s contained in an existing section after the update (\(newCounts[section])) must be "
                        + "equal to the number of \(noun)s contained in that section before the update "
                        + "(\(oldCounts[section])), plus or minus the number of \(noun)s inserted or deleted from that "
                        + "section (\(inserted) inserted, \(removed) deleted) and plus or minus the number of "
                        + "\(noun)s moved into or out of that section (\(movedIn) moved in, \(movedOut) moved out)")
            }
        }

        self.vacated = vacated.mapValues { $0.sorted() }
        self.filled = filled.mapValues { $0.sorted() }
        self.deleted = deleted
        self.destinations = destinations
    }

    /// Whether the batch changes nothing.
    var isEmpty: Bool { vacated.isEmpty && filled.isEmpty }

    /// The index path after the update of the item at `old` before it, or
    /// `nil` if the item was deleted.
    ///
    /// - Precondition: `old` was a valid index path before the update.
    /// - Complexity: O(log u + u) for u updates in `old`'s section.
    func newPath(for old: ItemPath) -> ItemPath? {
        if deleted.contains(old) { return nil }
        if let destination = destinations[old] { return destination }
        // Its rank among the items of its section that stay…
        var slot = old.item
        if let vacated = vacated[old.section] {
            slot -= vacated.partitioningIndex { $0 >= old.item }
        }
        // …is its rank among the slots of the new section that nothing fills.
        if let filled = filled[old.section] {
            for taken in filled {
                guard taken <= slot else { break }
                slot += 1
            }
        }
        return ItemPath(item: slot, section: old.section)
    }
}

extension Array where Element == Int {
    /// The first index whose element satisfies `predicate`, which must be
    /// false and then true along the (sorted) array.
    ///
    /// - Complexity: O(log n).
    fileprivate func partitioningIndex(where predicate: (Int) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = low + (high - low) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
