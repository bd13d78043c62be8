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
    let items: [Item?]
    let frameSeconds: Double
    let slots: Int
    let hasLink: Bool

    init(scenario: SimulationScenario, visibility: ScenarioVisibility, retryPolicy: RetryPolicy = .default) {
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
            items[item] = Item(frames: frames, latency: latency / .seconds(1), transfer: transfer, loadable: loadable)
        }
        self.items = items
        frameSeconds = visibility.frameDuration / .seconds(1)
        slots = scenario.maxConcurrentLoads
        hasLink = bitsPerSecond != nil
    }

    /// The state before anything is released.
    func initialState(itemCount: Int) -> State {
        State(slotEnds: Array(repeating: 0, count: max(1, min(slots, itemCount))), linkFree: 0, shown: 0)
    }

    /// Releases `item` after `state`: returns when it is released, or `nil`
    /// (state unchanged) when it would show fewer than `minimumShown`
    /// cell-frames (at least one) and is left out.
    func release(_ item: Int, after state: inout State, minimumShown: Int = 1) -> Double? {
        guard item < items.count, let model = items[item], model.loadable else { return nil }
        var slot = 0
        for index in state.slotEnds.indices where state.slotEnds[index] < state.slotEnds[slot] { slot = index }
        let release: Double
        let end: Double
        if hasLink {
            release = max(state.slotEnds[slot], state.linkFree - model.latency, 0)
            end = max(release + model.latency, state.linkFree) + model.transfer
        } else {
            release = state.slotEnds[slot]
            end = release + model.latency
        }
        let shown = cellFramesShown(model.frames, readyAt: end)
        guard shown >= max(1, minimumShown) else { return nil }
        if hasLink { state.linkFree = end }
        state.slotEnds[slot] = end
        state.shown += shown
        return release
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
        var state = initialState(itemCount: order.count)
        var releases: [(time: Duration, item: Int)] = []
        for item in order {
            guard let time = release(item, after: &state) else { continue }
            releases.append((.nanoseconds(Int64((time * 1e9).rounded(.down))), item))
        }
        // Stable by time: equal times keep the order, as the scheduler's FIFO does.
        return releases.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
    }
}
