import Lookahead

// The oracle's model of a release order: when each load would start and end
// if requests were released just in time, and how many cell-frames that shows.
// Fast enough to evaluate thousands of orders; the simulator then runs the best.

/// Predicts, for an order of items, a just-in-time release schedule and the
/// cell-frames it shows, under the simulator's limits.
///
/// The model follows the simulator's: `C` slots, each load holding one from
/// its start to its end; on a limited link, one transfer at a time with the
/// whole bandwidth (the schedule releases each request so that its latency
/// overlaps the transfer before it and its own transfer starts as the link
/// frees up: transfers in sequence finish no later, on average, than the
/// same transfers sharing the link). Failed attempts and their retry delays
/// hold the slot in the model (the scheduler frees it during a delay, so the
/// model is, if anything, late). An item is shown from the first of its
/// visible frames at or after its predicted end.
///
/// A load takes the slot freed last by the time it is wanted (best fit), so
/// the slots freed earlier stay for long latencies released ahead of their
/// turn; ``filled(_:lookahead:)`` lets a later item use the link while the
/// next one's latency cannot fit the slots. Without them the link stood idle
/// about 30 % of the time on `photos` (seed 4, the deadline order: 10.4 s of
/// 48 s of transfers), and the oracle fell behind the scroll for the rest of
/// the run.
///
/// With hedging, a load may carry a hedge: attempt 1, sent with attempt 0
/// on a second slot, as the oracle's plans send it through the scheduler's
/// hedge. The model sends one where attempt 1's data lands first, attempt 0
/// would not reach its first byte before then (so the loser never shares the
/// link: it holds its slot until cancelled, or frees it when it fails), and
/// the item shows more for it; both slots are then held from the release to
/// the hedge's landing.
///
/// Prefix states make a change at position `i` cost O(n − i): the local
/// search of ``OracleSearch`` evaluates a drop, an insertion or a swap by
/// replaying only the order's tail.
struct OracleTimeline {
    /// What the model knows of one item.
    struct Item {
        /// The item's visible frames, ascending.
        var frames: [Int]
        /// From the request to the first byte of the first good attempt: the
        /// failed attempts' latencies and retry delays, then its latency.
        var latency: Double
        /// The payload's time on the whole link (0 without a link limit).
        var transfer: Double
        /// Whether some attempt within the retry policy succeeds.
        var loadable: Bool
        /// A hedge sent with the first attempt, where it lands first.
        var hedge: Hedge?
    }

    /// What the model knows of a hedge sent with an item's first attempt:
    /// attempt 1, with its own latency draw, as `SimulatedLoader` sends it.
    struct Hedge {
        /// Attempt 1's latency (it does not fail).
        var latency: Double
        /// Attempt 0's latency: when the losing attempt would reach its first
        /// byte (and start sharing the link), or fail.
        var firstLatency: Double
        /// Whether attempt 0 fails: it then frees its slot after its latency.
        var firstFails: Bool
    }

    /// Where and when one item is placed after a state.
    struct Placement {
        var release: Double
        /// When its data is in.
        var end: Double
        /// When it is ready to show: decoded, where the scenario decodes
        /// (its slot is held until then, as the load holds it).
        var ready: Double
        var slot: Int
        /// The second slot a hedged load holds, and until when.
        var hedgeSlot: (index: Int, end: Double)?
    }

    /// The state of the model after a prefix of an order.
    struct State {
        /// When each slot frees up, in seconds.
        var slotEnds: [Double]
        /// When the link frees up.
        var linkFree: Double
        /// Cell-frames shown by the prefix's items.
        var shown: Int
    }

    /// By item index; `nil` for items the trace never shows.
    var items: [Item?]
    let frameSeconds: Double
    let slots: Int
    let hasLink: Bool
    /// Whether the model hedges an item where that shows more of it.
    let hedges: Bool
    /// A load's decode, after its data is in (the scenario's service time;
    /// 0 without one). Decodes waiting for a slot are not modelled.
    let decode: Double

    /// - Parameter hedging: whether a load may carry a hedge (attempt 1 sent
    ///   with attempt 0, on a second slot; the first to land wins and the
    ///   other is cancelled): the model hedges where attempt 1 lands first,
    ///   attempt 0 would not reach its first byte before then (it would share
    ///   the link), and the hedged load shows more cell-frames.
    init(
        scenario: SimulationScenario, visibility: ScenarioVisibility, retryPolicy: RetryPolicy = .default,
        hedging: Bool = false
    ) {
        let network = scenario.network
        var bitsPerSecond: Double?
        if case .bitsPerSecond(let bits) = network.bandwidth { bitsPerSecond = bits }
        var items = [Item?](repeating: nil, count: (visibility.frames.keys.max() ?? -1) + 1)
        for (item, frames) in visibility.frames {
            var latency = Duration.zero
            var attempt = 0
            while network.fails(item: item, attempt: attempt), attempt + 1 < retryPolicy.maxAttempts {
                latency += network.latency(forItem: item, attempt: attempt)
                attempt += 1
                latency += retryPolicy.delay(afterFailures: attempt) ?? .zero
            }
            let loadable = !network.fails(item: item, attempt: attempt)
            latency += network.latency(forItem: item, attempt: attempt)
            let transfer = bitsPerSecond.map { Double(network.payloadBytes(forItem: item)) * 8 / $0 } ?? 0
            var model = Item(frames: frames, latency: latency / .seconds(1), transfer: transfer, loadable: loadable)
            if hedging, retryPolicy.maxAttempts > 1, !network.fails(item: item, attempt: 1) {
                let hedge = Hedge(
                    latency: network.latency(forItem: item, attempt: 1) / .seconds(1),
                    firstLatency: network.latency(forItem: item, attempt: 0) / .seconds(1),
                    firstFails: network.fails(item: item, attempt: 0))
                if loadable, hedge.latency < model.latency { model.hedge = hedge }
            }
            items[item] = model
        }
        self.items = items
        frameSeconds = visibility.frameDuration / .seconds(1)
        slots = scenario.maxConcurrentLoads
        hasLink = bitsPerSecond != nil
        hedges = hedging
        decode = scenario.decoding.map { $0.serviceTime / .seconds(1) } ?? 0
    }

    /// The state before anything is released.
    func initialState(itemCount: Int) -> State {
        // A hedged load holds two slots.
        let used = hedges ? 2 * itemCount : itemCount
        return State(slotEnds: Array(repeating: 0, count: max(1, min(slots, used))), linkFree: 0, shown: 0)
    }

    /// Releases `item` after `state`: returns when it is released, or `nil`
    /// (state unchanged) when it would show fewer than `minimumShown`
    /// cell-frames (at least one) and is left out.
    @discardableResult
    func release(_ item: Int, after state: inout State, minimumShown: Int = 1) -> Double? {
        place(item, after: &state, minimumShown: minimumShown)?.release
    }

    /// ``release(_:after:minimumShown:)``, also saying whether the load is
    /// hedged: with ``hedges``, where a hedge shows more of the item than
    /// the load alone.
    func place(_ item: Int, after state: inout State, minimumShown: Int = 1) -> (release: Double, hedged: Bool)? {
        guard item < items.count, let model = items[item], model.loadable else { return nil }
        let (chosen, shown) = placement(of: model, in: state)
        guard shown >= max(1, minimumShown) else { return nil }
        if hasLink { state.linkFree = chosen.end }
        state.slotEnds[chosen.slot] = chosen.ready
        if let hedgeSlot = chosen.hedgeSlot { state.slotEnds[hedgeSlot.index] = hedgeSlot.end }
        state.shown += shown
        return (chosen.release, chosen.hedgeSlot != nil)
    }

    /// Where `model`'s load goes after `state` and the cell-frames it shows:
    /// hedged where that shows more.
    func placement(of model: Item, in state: State) -> (placement: Placement, shown: Int) {
        let alone = placement(of: model, in: state, hedged: false)!
        let shown = cellFramesShown(model.frames, readyAt: alone.ready)
        // Nothing lands before a transfer that starts as the link frees up.
        guard model.hedge != nil, alone.end - model.transfer > state.linkFree + 1e-9 || !hasLink,
            let hedged = placement(of: model, in: state, hedged: true), hedged.ready < alone.ready
        else { return (alone, shown) }
        let hedgedShown = cellFramesShown(model.frames, readyAt: hedged.ready)
        return hedgedShown > shown ? (hedged, hedgedShown) : (alone, shown)
    }

    /// Where `model`'s load goes after `state`, with a hedge or without;
    /// `nil` for a hedge the model does not send (none, two slots not there,
    /// or attempt 0 reaching its first byte before the hedge lands).
    func placement(of model: Item, in state: State, hedged: Bool) -> Placement? {
        let latency: Double
        if hedged {
            guard let hedge = model.hedge, state.slotEnds.count > 1 else { return nil }
            latency = hedge.latency
        } else {
            latency = model.latency
        }
        let wanted = hasLink ? max(0, state.linkFree - latency) : 0
        let slot = bestSlot(in: state.slotEnds, wantedAt: wanted)
        var release = max(state.slotEnds[slot], wanted)
        var second: Int?
        if hedged {
            let other = bestSlot(in: state.slotEnds, wantedAt: wanted, excluding: slot)
            second = other
            release = max(release, state.slotEnds[other])
        }
        let end = hasLink ? max(release + latency, state.linkFree) + model.transfer : release + latency
        let ready = end + decode
        guard let second, let hedge = model.hedge else {
            return Placement(release: release, end: end, ready: ready, slot: slot, hedgeSlot: nil)
        }
        // The losing attempt: cancelled when the hedge's data is ready, or failed before.
        if hedge.firstFails {
            return Placement(
                release: release, end: end, ready: ready, slot: slot,
                hedgeSlot: (second, min(ready, release + hedge.firstLatency)))
        }
        guard release + hedge.firstLatency >= end - 1e-9 else { return nil }
        return Placement(release: release, end: end, ready: ready, slot: slot, hedgeSlot: (second, ready))
    }

    /// The slot a load wanted at `time` takes: the one freed last by then
    /// (best fit: the slots freed earlier stay for the long-latency loads
    /// that must be released before it), or the one freed first.
    ///
    /// The simulator's slots are a count, not places: any assignment of the
    /// loads to `C` slots without overlap keeps at most `C` in flight, and
    /// best fit packs more of them without delay than first-free does.
    /// - Parameter excluded: a slot not to take (the one a hedged load's first attempt took).
    func bestSlot(in slotEnds: [Double], wantedAt time: Double, excluding excluded: Int = -1) -> Int {
        var fitting = -1
        var first = excluded == 0 ? 1 : 0
        for index in slotEnds.indices where index != excluded {
            if slotEnds[index] < slotEnds[first] { first = index }
            if slotEnds[index] <= time, fitting < 0 || slotEnds[index] > slotEnds[fitting] { fitting = index }
        }
        return fitting >= 0 ? fitting : first
    }

    /// The frames of `frames` at or after `time` (a nanosecond of slack: the
    /// simulator rounds completions to the nearest one).
    func cellFramesShown(_ frames: [Int], readyAt time: Double) -> Int {
        let first = max(0, Int(((time - 1e-9) / frameSeconds).rounded(.up)))
        var low = 0
        var high = frames.count
        while low < high {
            let middle = (low + high) / 2
            if frames[middle] < first { low = middle + 1 } else { high = middle }
        }
        return frames.count - low
    }

    /// When `item`'s transfer would start if released next after `state`
    /// (its end, without a link limit).
    func transferStart(of item: Int, after state: State) -> Double {
        let model = items[item]!
        return placement(of: model, in: state).placement.end - model.transfer
    }

    /// `order` with the link's idle time filled: where the next item's
    /// transfer could not start as the link frees up (its latency does not
    /// fit the slots), the first of the next `lookahead` items whose
    /// transfer can, and that does not delay it, goes first.
    ///
    /// On a link the loads' latencies must overlap the transfers before
    /// them; a long latency in the order's way leaves the link idle while a
    /// later item, loaded early into the unlimited cache, would use it.
    /// Items that show nothing keep their place (the release leaves them out).
    ///
    /// - Complexity: O(n × lookahead × C).
    func filled(_ order: [Int], lookahead: Int) -> [Int] {
        guard hasLink else { return order }
        var state = initialState(itemCount: order.count)
        var taken = [Bool](repeating: false, count: order.count)
        var result: [Int] = []
        result.reserveCapacity(order.count)
        var head = 0
        while head < order.count {
            guard !taken[head] else {
                head += 1
                continue
            }
            var next = head
            if let model = items[order[head]], model.loadable {
                let start = transferStart(of: order[head], after: state)
                var scanned = 0
                var candidate = head + 1
                while start > state.linkFree + 1e-9, scanned < lookahead, candidate < order.count {
                    defer { candidate += 1 }
                    guard !taken[candidate], let filler = items[order[candidate]], filler.loadable else { continue }
                    scanned += 1
                    guard transferStart(of: order[candidate], after: state) <= state.linkFree + 1e-9 else { continue }
                    var trial = state
                    guard release(order[candidate], after: &trial) != nil,
                        transferStart(of: order[head], after: trial) <= start + 1e-9
                    else { continue }
                    next = candidate
                    break
                }
            }
            taken[next] = true
            result.append(order[next])
            _ = release(order[next], after: &state)
        }
        return result
    }

    /// The cell-frames `order` shows from `position` on, starting from `state`.
    func shown(_ order: [Int], from position: Int, after state: State) -> Int {
        var state = state
        for index in position..<order.count { _ = release(order[index], after: &state) }
        return state.shown
    }

    /// The states before each position of `order` (and after the last).
    func prefixStates(of order: [Int]) -> [State] {
        var states = [initialState(itemCount: order.count)]
        states.reserveCapacity(order.count + 1)
        var state = states[0]
        for item in order {
            _ = release(item, after: &state)
            states.append(state)
        }
        return states
    }

    /// The items of `order` released when each must show at least
    /// `minimumShown` cell-frames, in order: earliest deadline first with a
    /// threshold leaves out what costs the link more than it shows.
    func released(_ order: [Int], minimumShown: Int) -> [Int] {
        var state = initialState(itemCount: order.count)
        return order.filter { release($0, after: &state, minimumShown: minimumShown) != nil }
    }

    /// The release schedule of `order`: each item that shows something, at
    /// its release time, in order.
    func releases(of order: [Int]) -> [(time: Duration, item: Int)] {
        hedgedReleases(of: order).releases
    }

    /// ``releases(of:)``, and the items whose loads carry a hedge.
    func hedgedReleases(of order: [Int]) -> (releases: [(time: Duration, item: Int)], hedged: Set<Int>) {
        var state = initialState(itemCount: order.count)
        var releases: [(time: Duration, item: Int)] = []
        var hedged = Set<Int>()
        for item in order {
            guard let placed = place(item, after: &state) else { continue }
            releases.append((.nanoseconds(Int64((placed.release * 1e9).rounded(.down))), item))
            if placed.hedged { hedged.insert(item) }
        }
        // Stable by time: equal times keep the order, as the scheduler's FIFO does.
        let sorted = releases.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
        return (sorted.map(\.element), hedged)
    }
}
