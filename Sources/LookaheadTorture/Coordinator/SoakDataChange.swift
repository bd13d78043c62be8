// One change an app's data makes to the soak's list, as apps make them:
// reloads (the same items, a page appended, everything replaced), and batch
// updates that shift index paths — inserts, deletes and moves near the
// screen, items reloaded, pages appended, several at once — told to the
// coordinator by the keys the view shows after, before or after the view
// applies them.

import Lookahead
import LookaheadHeadless

@MainActor
struct SoakDataChange {
    let source: CoordinatedDataSource<String>
    let view: CollectionView
    let coordinator: PrefetchCoordinator<Int, String>

    /// Makes one change, picked with `random`, and names it (`nil`: none);
    /// new items take keys from `nextKey` on.
    @discardableResult
    mutating func make(
        using random: inout SplitMix64, nextKey: inout Int, report: inout CoordinatorSoakReport
    ) -> String? {
        let visible = view.indexPathsForVisibleItems.map(\.item)
        guard let first = visible.first, let last = visible.last else { return nil }
        func fresh(_ count: Int) -> [Int] {
            defer { nextKey += count }
            return Array(nextKey..<nextKey + count)
        }
        // An index near the screen: a few rows above it, on it, or just below.
        func nearby(in count: Int) -> Int {
            let low = max(0, first - 8)
            let high = min(count - 1, last + 8)
            return low + Int(random.next() % UInt64(max(1, high - low + 1)))
        }
        let count = source.keys.count
        switch random.next() % 16 {
        case 0:
            reload(report: &report) {}
            return "reload"
        case 1:
            let page = fresh(100)
            reload(report: &report) { source.keys += page }
            return "reload with a page appended"
        case 2 where random.next() % 4 == 0:
            let all = fresh(20_000)
            reload(report: &report) { source.keys = all }
            return "reload of new items"
        case 3, 4:
            let at = nearby(in: count + 1)
            let inserted = fresh(1 + Int(random.next() % 5))
            return update("insert", random: &random, report: &report) {
                source.keys.insert(contentsOf: inserted, at: at)
                view.insertItems(at: (at..<at + inserted.count).map { ItemPath(item: $0, section: 0) })
            }
        case 5, 6:
            let at = nearby(in: count)
            let deleted = min(1 + Int(random.next() % 5), count - at)
            guard count - deleted > 1_000 else { return nil }
            return update("delete", random: &random, report: &report) {
                source.keys.removeSubrange(at..<at + deleted)
                view.deleteItems(at: (at..<at + deleted).map { ItemPath(item: $0, section: 0) })
            }
        case 7, 8:
            let from = nearby(in: count)
            let to = nearby(in: count)
            guard from != to else { return nil }
            return update("move", random: &random, report: &report) {
                source.keys.insert(source.keys.remove(at: from), at: to)
                view.moveItem(at: ItemPath(item: from, section: 0), to: ItemPath(item: to, section: 0))
            }
        case 9, 10:
            let at = nearby(in: count)
            let replacement = fresh(1)[0]
            return update("item reloaded", random: &random, report: &report) {
                source.keys[at] = replacement
                view.reloadItems(at: [ItemPath(item: at, section: 0)])
            }
        case 11:
            let page = fresh(100)
            return update("page appended", random: &random, report: &report) {
                source.keys += page
                view.insertItems(at: (count..<count + page.count).map { ItemPath(item: $0, section: 0) })
            }
        case 12, 13:
            // A snapshot of several changes: a delete (old index) and an insert (new index).
            let deleted = nearby(in: count)
            let inserted = nearby(in: count)
            let key = fresh(1)[0]
            return update("several at once", random: &random, report: &report) {
                source.keys.remove(at: deleted)
                source.keys.insert(key, at: inserted)
                view.deleteItems(at: [ItemPath(item: deleted, section: 0)])
                view.insertItems(at: [ItemPath(item: inserted, section: 0)])
            }
        default:
            return nil
        }
    }

    /// The data changes (`change`), then the view and the coordinator reload, as the README says.
    private func reload(report: inout CoordinatorSoakReport, _ change: () -> Void) {
        change()
        view.reloadData()
        coordinator.reloadData()
        report.reloads += 1
    }

    /// A batch update: `change` edits the data and reports it to the view;
    /// the coordinator is told the keys after it, inside the updates (before
    /// the view applies them) or after `performBatchUpdates` returns.
    private func update(
        _ kind: String, random: inout SplitMix64, report: inout CoordinatorSoakReport, _ change: () -> Void
    ) -> String {
        let toldAfter = random.next() % 2 == 0
        view.performBatchUpdates {
            change()
            if !toldAfter { coordinator.applyUpdates(to: [source.keys]) }
        }
        if toldAfter {
            coordinator.applyUpdates(to: [source.keys])
            report.updatesToldAfter += 1
        }
        report.batchUpdates += 1
        report.updatesByKind[kind, default: 0] += 1
        return kind + (toldAfter ? ", told after" : ", told inside the updates")
    }
}
