import Lookahead

// The oracle's search for a good release order: starting orders read from the
// lower bound's relaxation (α-points) and the deadlines, improved by a local
// search on the just-in-time model (OracleTimeline). Deterministic: the budget
// counts model steps, not seconds.

/// Finds release orders that show many cell-frames under the simulator's
/// limits, for the oracle to run.
///
/// The starting orders are the classic ones for scheduling from a
/// time-indexed relaxation: each item at its α-point, the frame by which the
/// relaxation's fractional solution has shown a share α of it (items it
/// shows less than α are left out), for several α; and earliest deadline
/// first; each also with the link's idle time filled
/// (``OracleTimeline/filled(_:lookahead:)``). The best are then improved by first-improvement local search on
/// ``OracleTimeline``: drop an item (what it costs the link is worth more to
/// the items behind it), insert a left-out item where its deadline falls,
/// move an item up to 32 places earlier. No such schedule is provably optimal; the simulator
/// runs the candidates and the oracle keeps the best.
struct OracleSearch {
    let timeline: OracleTimeline
    /// Every item the trace shows, earliest first appearance first.
    let deadlineOrder: [Int]
    /// The position of each item in `deadlineOrder`, where insertions aim.
    let deadlineRank: [Int: Int]
    /// Model steps (one item released in the model) left to spend.
    private(set) var budget: Int

    init(timeline: OracleTimeline, deadlineOrder: [Int], budget: Int) {
        self.timeline = timeline
        self.deadlineOrder = deadlineOrder
        var rank: [Int: Int] = [:]
        for (position, item) in deadlineOrder.enumerated() { rank[item] = position }
        deadlineRank = rank
        self.budget = budget
    }

    /// Release orders worth running: the starting orders, each improved,
    /// best predicted first (duplicates removed).
    ///
    /// - Parameters:
    ///   - solution: the lower bound's relaxation, for the α-points.
    ///   - improving: how many of the best starting orders to improve.
    mutating func candidates(from solution: LowerBoundSolution, improving: Int = 2) -> [[Int]] {
        var starts = [
            deadlineOrder,
            solution.shownFrom.keys.sorted { (solution.shownFrom[$0]!, $0) < (solution.shownFrom[$1]!, $1) },
        ]
        for alpha in [0.1, 0.3, 0.5, 0.7, 0.9] { starts.append(solution.alphaPoints(alpha).map(\.item)) }
        for minimumShown in [4, 8, 15, 30, 60] {
            starts.append(timeline.released(deadlineOrder, minimumShown: minimumShown))
            starts.append(timeline.released(starts[1], minimumShown: minimumShown))
        }
        // Each also with the link's idle time filled by items loaded early.
        starts += starts.map { timeline.filled($0, lookahead: Self.fillLookahead) }
        let filledDeadlineOrder = timeline.filled(deadlineOrder, lookahead: Self.fillLookahead)
        // Earliest deadline first is improved whatever its prediction: from all
        // the items, the drops find better local optima than from a threshold's.
        let ranked =
            [(order: filledDeadlineOrder, shown: predictedShown(filledDeadlineOrder))]
            + starts.dropFirst().map { (order: $0, shown: predictedShown($0)) }.sorted { $0.shown > $1.shown }
        var results: [(order: [Int], shown: Int)] = []
        for (index, start) in ranked.enumerated() {
            results.append(start)
            guard index < improving else { continue }
            // An equal share of what is left for each order still to improve.
            let left = budget
            budget = left / (improving - index)
            let share = budget
            var improved = improve(start.order)
            // The moves may open idle time on the link again: fill it, improve once more.
            let refilled = timeline.filled(improved, lookahead: Self.fillLookahead)
            if predictedShown(refilled) > predictedShown(improved) { improved = improve(refilled) }
            budget = left - (share - budget)
            results.append((improved, predictedShown(improved)))
        }
        results.sort { $0.shown > $1.shown }
        var seen = Set<[Int]>()
        return results.map(\.order).filter { seen.insert($0).inserted }
    }

    /// How far ahead ``OracleTimeline/filled(_:lookahead:)`` looks for an
    /// item to fill the link's idle time with.
    static let fillLookahead = 32

    /// The cell-frames the model predicts `order` shows.
    func predictedShown(_ order: [Int]) -> Int {
        timeline.shown(order, from: 0, after: timeline.initialState(itemCount: order.count))
    }

    /// First-improvement local search from `order`, until no move helps or
    /// the budget runs out.
    mutating func improve(_ order: [Int]) -> [Int] {
        // Only the items that show something: the others change nothing.
        var order = order.filter { item in
            var state = timeline.initialState(itemCount: 1)
            return timeline.release(item, after: &state) != nil
        }
        var improved = true
        while improved, budget > 0 {
            improved = false
            improved = dropPass(&order) || improved
            improved = insertPass(&order) || improved
            improved = relocatePass(&order) || improved
        }
        return order
    }

    /// One pass's bookkeeping: the order's prefix states, what it shows,
    /// whether the pass changed it.
    private struct Sweep {
        var states: [OracleTimeline.State]
        var total: Int
        var changed = false
    }

    private func sweep(_ order: [Int]) -> Sweep {
        let states = timeline.prefixStates(of: order)
        return Sweep(states: states, total: states.last!.shown)
    }

    /// Records a change to `order` from `position` on that shows `shown`.
    private mutating func accept(_ shown: Int, in sweep: inout Sweep, order: [Int], from position: Int) {
        sweep.total = shown
        sweep.changed = true
        refresh(&sweep.states, of: order, from: position)
    }

    /// Leaves out each item in turn where that shows more.
    private mutating func dropPass(_ order: inout [Int]) -> Bool {
        var pass = sweep(order)
        var position = 0
        while position < order.count, budget > 0 {
            let without = timeline.shown(order, from: position + 1, after: pass.states[position])
            budget -= order.count - position
            guard without > pass.total else {
                position += 1
                continue
            }
            order.remove(at: position)
            accept(without, in: &pass, order: order, from: position)
        }
        return pass.changed
    }

    /// Puts each left-out item back at its deadline's place where that shows more.
    private mutating func insertPass(_ order: inout [Int]) -> Bool {
        let included = Set(order)
        var pass = sweep(order)
        for item in deadlineOrder where !included.contains(item) {
            guard budget > 0 else { break }
            let rank = deadlineRank[item]!
            let position = order.firstIndex { deadlineRank[$0]! > rank } ?? order.count
            var state = pass.states[position]
            guard timeline.release(item, after: &state) != nil else { continue }
            let with = timeline.shown(order, from: position, after: state)
            budget -= order.count - position + 1
            guard with > pass.total else { continue }
            order.insert(item, at: position)
            accept(with, in: &pass, order: order, from: position)
        }
        return pass.changed
    }

    /// Moves each item earlier, by 1, 2, 4, … 32 places, where that shows
    /// the most (and more than where it is).
    private mutating func relocatePass(_ order: inout [Int]) -> Bool {
        var pass = sweep(order)
        for position in order.indices.dropFirst() {
            guard budget > 0 else { break }
            var best = (shown: pass.total, target: position)
            var distance = 1
            while distance <= 32, distance <= position {
                let target = position - distance
                var state = pass.states[target]
                _ = timeline.release(order[position], after: &state)
                for index in target..<position { _ = timeline.release(order[index], after: &state) }
                let moved = timeline.shown(order, from: position + 1, after: state)
                budget -= order.count - target
                if moved > best.shown { best = (moved, target) }
                distance *= 2
            }
            guard best.target < position else { continue }
            order.insert(order.remove(at: position), at: best.target)
            accept(best.shown, in: &pass, order: order, from: best.target)
        }
        return pass.changed
    }

    /// Recomputes the prefix states of `order` from `position` on.
    private mutating func refresh(_ states: inout [OracleTimeline.State], of order: [Int], from position: Int) {
        states.removeSubrange((position + 1)...)
        var state = states[position]
        for item in order[position...] {
            _ = timeline.release(item, after: &state)
            states.append(state)
        }
        budget -= order.count - position
    }
}
