import Lookahead

/// A number of blank cell-frames that no per-item strategy the simulator can
/// run goes under in a scenario — not even a clairvoyant one — given the same
/// latencies, payloads, failures, concurrency limit and link.
///
/// ## The relaxation
///
/// Every strategy that loads item by item is bound by these premises of the
/// simulator's model (``TransferSimulator``, ``NetworkModel``, the
/// ``FetchScheduler``'s limit), and the bound keeps only them:
/// 1. **Earliest arrival.** Attempt k of an item is sent only after attempts
///    0…k−1 failed, each failing after its own latency; the first attempt that
///    does not fail (`a`) then waits its latency and transfers its payload. So
///    the item's data is ready no earlier than `e = Σ_{k≤a} latency(k) + bytes ÷
///    bandwidth` (no backoff, the whole link to itself), and a frame shows it
///    only if `e` is at or before the frame's time (completions at a frame's
///    time are processed before the frame is counted).
/// 2. **The link.** No byte flows in a latency phase, and the loads in their
///    transfer phase share the bandwidth: the payloads of the items ready by
///    time t add up to at most `bandwidth × (t − t₀)`, t₀ the earliest any
///    successful attempt can reach its first byte.
/// 3. **The slots.** A load holds one of the `C` concurrency slots from its
///    start to its end, at least `latency` (+ `bytes ÷ bandwidth` when it
///    succeeds): the slot-time of the items ready by t adds up to at most
///    `C × t`.
/// 4. **In flight.** At any instant at most `C` attempts are in flight
///    (the scheduler's limit; hedges count against it). The attempt that
///    delivers an item's data holds its slot for at least its latency plus
///    its bytes over the whole link (`hold`), all within `[0, t]` when the
///    data is ready by `t`, so it is in flight at every instant of
///    `[t − hold, hold]`: at each frame's instant, the items whose
///    delivering attempts must then be in flight number at most `C`. Premise
///    3 counts slot-time over `[0, t]` and lets many short-lived choices
///    share it; this one stops a first screen of more than `C` slow items all
///    arriving at their earliest.
///
/// 5. **Decoding.** Where the scenario decodes, the data is ready to show
///    its service time after it is in, and the load holds its slot meanwhile
///    (premises 1, 3 and 4 count it); waits for a decode slot are left out.
///
/// With a start lead (``SimulationScenario/startLead``), the first frame's
/// items may start loading that long before it, the others when it shows:
/// every time above counts from the lead's start, and an item not on the
/// first frame arrives no earlier than the lead plus its premise-1 time.
///
/// Choosing for each item the visible frame from which it is shown (or never)
/// under 1–4 is an integer program; its linear relaxation (fractional choices)
/// is a linear program whose optimum bounds the blank cell-frames from below.
/// The bound solves the program's Lagrangian dual — a multiplier per frame on
/// each cumulative constraint 2 and 3, subgradient steps with Polyak's step
/// size towards a moving target — and every iterate gives a certified bound
/// (weak duality), so stopping early only loosens it. An iteration is one
/// pass over the visible cell-frames.
///
/// Why the link and slot constraints count from time zero, not per window
/// [s, t]: the simulator's cache keeps everything loaded, so a clairvoyant
/// strategy may load any item at any time before it is needed — idle link
/// time early in a run really can carry the payloads a fling needs later,
/// and no load is forced into a window. (A per-window cut that is valid here,
/// the items whose earliest first byte is at or after `s` transferring within
/// [s, t], was measured at release levels spread over the first bytes: photos
/// seed 4 1,548 → 1,551, slow-network seed 1 unchanged — not kept.) On
/// `photos` the gap to the oracle was the oracle's: see ``OracleTimeline``.
///
/// What it leaves out, which only makes it lower: retry backoff, the sharing
/// of the link slowing each transfer, failed attempts' slot-time beyond their
/// latency, display requests' order. Strategies that load pages (one request
/// carrying many items) are outside its premises.
///
/// ## Hedging
///
/// Premise 1 assumes an item's attempts run one after another. A strategy
/// that hedges (starts a second attempt while the first is still in flight,
/// at most one per item, whichever lands first wins) breaks it: the hedge,
/// attempt `k + 1` with its own latency, may land before attempt `k` would.
/// With `allowsHedging`, an item with no failed attempt before its first
/// good one (attempt 0) has two options, and the relaxation picks one: the
/// data comes from attempt 0 (ready no earlier than `latency(0) + bytes ÷
/// bandwidth`, slot-time as in premise 3), or from a hedge, attempt 1, when
/// it does not fail (ready no earlier than `latency(1) + bytes ÷ bandwidth`;
/// attempt 0 started no later and holds its slot until the hedge's data is
/// in, so the two hold slot-time of at least `2 · (latency(1) + bytes ÷
/// bandwidth)`). The hedged option is offered whenever it is earlier *or*
/// cheaper: a hedge whose latency is shorter than attempt 0's holds slots
/// for less time even when it lands no frame sooner (offering it only where
/// it landed earlier let the oracle go under the bound on a skimming trace,
/// `LowerBoundRegressionTests`). For the other items, premise 1 becomes: with `S` the latencies of the
/// failed attempts before the first good one `a`, and `M` the largest of
/// them, the data is ready no earlier than `min(S − M + latency(a), S +
/// latency(a + 1)) + bytes ÷ bandwidth` (the one hedge either overlaps a
/// failed attempt, saving at most `M`, or races the good one; the second
/// term only if attempt `a + 1` does not fail), and premise 3's slot-time
/// becomes `S + min(latency(a), 2 · latency(a + 1) + bytes ÷ bandwidth) +
/// bytes ÷ bandwidth` (every failed attempt runs its whole latency; without
/// a winning hedge the good attempt runs to its end; a winning hedge starts
/// no earlier than the good attempt, which holds its slot until the hedge's
/// data is in, so the two hold slots for at least the hedge's latency and
/// transfer each) — or, when the good attempt `a` is itself the hedge of
/// the failed attempt `a − 1` and lands before that one fails, `S −
/// latency(a − 1) + 2 · (latency(a) + bytes ÷ bandwidth)`: the failed
/// attempt is cut short when the hedge's data is in, having held its slot at
/// least as long as the hedge (the bound fuzzer found plans under the bound
/// that counted it whole). Each attempt still holds a slot (hedges count against
/// the concurrency limit) and still sends its bytes over the link only once
/// its latency has passed, so premises 2 and 3 hold as stated. `adaptive`
/// hedges (a visible cell's load past the observed p90), so the simulator's
/// reports compute the bound with hedging allowed, for every strategy.
public struct LowerBound: Sendable, Codable, Hashable {
    /// The bound: no per-item strategy leaves fewer blank cell-frames.
    public var blankCellFrames: Int
    /// The part of it that latency alone forces (premise 1 only): frames an
    /// item is visible before its data could possibly be there.
    public var latencyBoundCellFrames: Int
    /// The dual iterations run.
    public var iterations: Int

    public init(blankCellFrames: Int, latencyBoundCellFrames: Int, iterations: Int) {
        self.blankCellFrames = blankCellFrames
        self.latencyBoundCellFrames = latencyBoundCellFrames
        self.iterations = iterations
    }
}

extension LowerBound {
    /// Computes the bound for `scenario`.
    ///
    /// - Parameters:
    ///   - iterations: the most dual iterations (each one pass over the
    ///     visible cell-frames); fewer may run when the bound stops moving.
    /// - Complexity: O(iterations × (V + F)) for V visible cell-frames and F frames.
    ///   - allowsHedging: whether the bound must also hold for strategies
    ///     that hedge (see "Hedging" above); lower when it does.
    public init(scenario: SimulationScenario, iterations: Int = 400, allowsHedging: Bool = false) {
        var problem = LowerBoundProblem(scenario: scenario, allowsHedging: allowsHedging)
        self = problem.solve(iterations: iterations).bound
    }
}

/// What solving the relaxation gives: the bound, and the relaxation's own
/// choices, which the oracle plans by.
struct LowerBoundSolution {
    /// The certified bound.
    var bound: LowerBound
    /// At the best dual iterate, the frame from which each item is shown
    /// (items the relaxation does not show are absent).
    var shownFrom: [Int: Int]
    /// An estimate of the relaxation's fractional optimum: for each item, the
    /// frames from which it is shown and with which weight (summing to at
    /// most 1), the average of the Lagrangian choices over the later
    /// iterations (ergodic primal recovery). The oracle's α-points read it.
    var fractions: [Int: [(frame: Int, weight: Double)]]

    /// For each item whose weight reaches `alpha`, the first frame by which
    /// its cumulative weight does (its α-point), in the relaxation's order.
    func alphaPoints(_ alpha: Double) -> [(item: Int, frame: Int)] {
        var points: [(item: Int, frame: Int)] = []
        for (item, weights) in fractions {
            var total = 0.0
            for (frame, weight) in weights {
                total += weight
                if total >= alpha - 1e-9 {
                    points.append((item, frame))
                    break
                }
            }
        }
        return points.sorted { ($0.frame, $0.item) < ($1.frame, $1.item) }
    }
}

/// The linear program behind ``LowerBound``, in seconds.
struct LowerBoundProblem {
    struct Item {
        /// The item's index in the list.
        var id: Int
        /// The item's visible frames, ascending.
        var frames: [Int]
        /// The index in `frames` of the first frame at or after the earliest arrival.
        var firstFeasible: Int
        /// Link-time the payload takes (premise 2).
        var linkTime: Double
        /// Slot-time, shared by `C` slots (premise 3), divided by `C`.
        var slotTime: Double
        /// With hedging, where the item's own attempts say more: the hedge's
        /// earliest arrival (as `firstFeasible`, before it) and the slot-time
        /// a winning hedge costs (÷ `C`); the fields above are then the load
        /// without a winning hedge.
        var hedged: (firstFeasible: Int, slotTime: Double, hold: Double)?
        /// How long the attempt that delivers the data holds its slot at
        /// least (premise 4; the hedged option's two attempts each hold
        /// theirs for `hedged.hold`).
        var hold: Double
    }

    var items: [Item] = []
    var frameTimes: [Double] = []
    /// Right-hand sides per frame: link-time and slot-time available by then.
    var linkCapacity: [Double] = []
    var slotCapacity: [Double] = []
    /// The instants of premise 4: frame times up to the longest hold.
    var instantCount = 0
    var frameSeconds = 0.0
    /// How long before the first frame loads may start (the scenario's
    /// start lead): times count from then, so frame `i` is at `lead + i · frame`.
    var leadSeconds = 0.0
    /// The concurrency limit `C`.
    var slotCount = 1.0
    var visibleCellFrames = 0
    var latencyBound = 0

    init(scenario: SimulationScenario, allowsHedging: Bool = false) {
        let visibility = ScenarioVisibility(scenario: scenario)
        visibleCellFrames = visibility.visibleCellFrames
        frameSeconds = visibility.frameDuration / .seconds(1)
        leadSeconds = scenario.startLead / .seconds(1)
        frameTimes = (0..<visibility.frameCount).map { leadSeconds + Double($0) * frameSeconds }
        let network = scenario.network
        var bytesPerSecond: Double?
        if case .bitsPerSecond(let bits) = network.bandwidth { bytesPerSecond = bits / 8 }
        let slots = Double(scenario.maxConcurrentLoads)
        slotCount = slots
        var earliestFirstByte = Double.infinity
        // Premise 5: a decode after the data is in, its load holding its slot.
        let decode = scenario.decoding.map { $0.serviceTime / .seconds(1) } ?? 0
        for item in visibility.itemsByFirstAppearance {
            let frames = visibility.frames[item]!
            // Only the first screen's loads start before the view shows it.
            let start = frames.first == 0 ? 0 : leadSeconds
            // Premise 1: the failed attempts' latencies, then the first good one's.
            var chain = Duration.zero
            var attempt = 0
            while network.fails(item: item, attempt: attempt), attempt < 1_000_000 {
                chain += network.latency(forItem: item, attempt: attempt)
                attempt += 1
            }
            let unloadable = network.fails(item: item, attempt: attempt)
            let latency = network.latency(forItem: item, attempt: attempt)
            let transfer = bytesPerSecond.map { Double(network.payloadBytes(forItem: item)) / $0 } ?? 0
            var firstByte = (chain + latency) / .seconds(1)
            var slotLatency = firstByte
            var holdLatency = latency / .seconds(1)
            var hedgedFirstByte: Double?
            if allowsHedging, attempt == 0, !network.fails(item: item, attempt: 1) {
                // No failed attempt: the data comes from attempt 0, or from a
                // hedge (attempt 1) that attempt 0 ran beside until it landed.
                hedgedFirstByte = network.latency(forItem: item, attempt: 1) / .seconds(1)
            } else if allowsHedging {
                // One hedge: over the longest failed attempt, or racing the good one.
                var longestFailed = Duration.zero
                for failed in 0..<attempt {
                    longestFailed = max(longestFailed, network.latency(forItem: item, attempt: failed))
                }
                firstByte = (chain - longestFailed + latency) / .seconds(1)
                if attempt > 0 {
                    // The good attempt may be the hedge of the failed one before it,
                    // which it cuts short by landing first: that one holds its slot
                    // only until the hedge's data is in, at least as long as the hedge.
                    let overlapped = network.latency(forItem: item, attempt: attempt - 1)
                    let cutShort = (chain - overlapped + latency * 2) / .seconds(1) + transfer
                    slotLatency = min(slotLatency, cutShort)
                }
                if !network.fails(item: item, attempt: attempt + 1) {
                    let racing = network.latency(forItem: item, attempt: attempt + 1)
                    firstByte = min(firstByte, (chain + racing) / .seconds(1))
                    holdLatency = min(holdLatency, racing / .seconds(1))
                    // A winning hedge started no earlier than the good attempt, which
                    // holds its slot until the hedge's data is in: two slots for at
                    // least the hedge's latency and transfer each.
                    let hedgedSlot = (chain + racing * 2) / .seconds(1) + transfer
                    slotLatency = min(slotLatency, hedgedSlot)
                }
            }
            earliestFirstByte = min(earliestFirstByte, start + min(firstByte, hedgedFirstByte ?? .infinity))
            // A nanosecond of slack: completions are rounded to the nearest one.
            func firstFeasible(firstByte: Double) -> Int {
                let arrival = start + firstByte + transfer + decode - 1e-9
                return unloadable ? frames.count : (frames.firstIndex { frameTimes[$0] >= arrival } ?? frames.count)
            }
            var model = Item(
                id: item, frames: frames, firstFeasible: firstFeasible(firstByte: firstByte), linkTime: transfer,
                slotTime: (slotLatency + transfer + decode) / slots, hold: holdLatency + transfer + decode)
            if let hedgedFirstByte {
                // Kept unless attempt 0 alone is as early and as cheap: a hedge
                // whose latency is shorter holds slots for less time even when it
                // lands no earlier a frame.
                let hedged = (
                    firstFeasible: firstFeasible(firstByte: hedgedFirstByte),
                    slotTime: 2 * (hedgedFirstByte + transfer + decode) / slots,
                    hold: hedgedFirstByte + transfer + decode
                )
                if hedged.firstFeasible < model.firstFeasible || hedged.slotTime < model.slotTime
                    || hedged.hold < model.hold
                {
                    model.hedged = hedged
                }
            }
            latencyBound += min(model.firstFeasible, model.hedged?.firstFeasible ?? .max)
            items.append(model)
        }
        linkCapacity = frameTimes.map { bytesPerSecond == nil ? .infinity : max(0, $0 - earliestFirstByte) }
        slotCapacity = frameTimes
        let longestHold = items.reduce(0) { max($0, $1.hold, $1.hedged?.hold ?? 0) }
        let lastInstant = Int(((longestHold - leadSeconds) / frameSeconds).rounded(.down))
        instantCount = max(0, min(frameTimes.count, lastInstant + 1))
    }

    /// The instants (indices into the frame times) at which an attempt
    /// holding a slot for at least `hold` and landing by frame `frame` is
    /// surely in flight: `[t − hold, hold]`, shrunk by a microsecond (the
    /// attempt's interval lies in `[0, t]`, so it contains both ends' inside).
    func instants(hold: Double, frame: Int) -> Range<Int> {
        let hold = hold - 1e-6
        guard hold > 0 else { return 0..<0 }
        let low = max(0, Int(((frameTimes[frame] - hold - leadSeconds) / frameSeconds).rounded(.up)))
        let high = min(instantCount - 1, Int(((hold - leadSeconds) / frameSeconds).rounded(.down)))
        return low <= high ? low..<(high + 1) : 0..<0
    }

    /// Subgradient ascent on the dual (minimising its value, an upper bound on
    /// the cell-frames that can be shown), keeping the best iterate.
    ///
    /// Also returns, at the best iterate, the frame from which each item is
    /// shown in the relaxation (items it never shows are absent): an order the
    /// oracle can plan by.
    mutating func solve(iterations: Int) -> LowerBoundSolution {
        let frameCount = frameTimes.count
        let hasLink = linkCapacity.contains { $0.isFinite }
        var linkPrice = [Double](repeating: 0, count: frameCount)
        var slotPrice = [Double](repeating: 0, count: frameCount)
        var linkSuffix = [Double](repeating: 0, count: frameCount)
        var slotSuffix = [Double](repeating: 0, count: frameCount)
        var linkUse = [Double](repeating: 0, count: frameCount)
        var slotUse = [Double](repeating: 0, count: frameCount)
        // Premise 4's prices per instant, their prefix sums, and each iterate's use (differences).
        let slots = slotCount
        var flightPrice = [Double](repeating: 0, count: instantCount)
        var flightPrefix = [Double](repeating: 0, count: instantCount + 1)
        var flightUse = [Double](repeating: 0, count: instantCount + 1)
        var best = Double.infinity
        var choice = [Int](repeating: -1, count: items.count)
        var bestChoice = choice
        var target = 0.0
        var sinceImprovement = 0
        var ran = 0
        // Every iterate's choices, for the fractional solution (ergodic average).
        var history: [[Int32]] = []
        for iteration in 0..<max(1, iterations) {
            ran = iteration + 1
            // Suffix sums: a choice "ready by frame f" is in every constraint from f on.
            var runningLink = 0.0
            var runningSlot = 0.0
            for frame in stride(from: frameCount - 1, through: 0, by: -1) {
                runningLink += linkPrice[frame]
                runningSlot += slotPrice[frame]
                linkSuffix[frame] = runningLink
                slotSuffix[frame] = runningSlot
            }
            for frame in 0..<frameCount {
                linkUse[frame] = 0
                slotUse[frame] = 0
            }
            for instant in 0..<instantCount { flightPrefix[instant + 1] = flightPrefix[instant] + flightPrice[instant] }
            for instant in flightUse.indices { flightUse[instant] = 0 }
            func flightCost(hold: Double, frame: Int) -> Double {
                let range = instants(hold: hold, frame: frame)
                return flightPrefix[range.upperBound] - flightPrefix[range.lowerBound]
            }
            var value = 0.0
            for frame in 0..<frameCount {
                if hasLink { value += linkPrice[frame] * linkCapacity[frame] }
                value += slotPrice[frame] * slotCapacity[frame]
            }
            for instant in 0..<instantCount { value += flightPrice[instant] }
            for (position, item) in items.enumerated() {
                var bestGain = 0.0
                var bestFrame = -1
                var bestOption = (slotTime: item.slotTime, hold: item.hold, attempts: 1.0)
                let count = item.frames.count
                // The plain option, then the hedged one (if any) from its earlier frames.
                for option in 0..<(item.hedged == nil ? 1 : 2) {
                    let hedged = item.hedged ?? (0, 0, 0)
                    let (firstFeasible, slotTime, hold, attempts) =
                        option == 0
                        ? (item.firstFeasible, item.slotTime, item.hold, 1.0)
                        : (hedged.firstFeasible, hedged.slotTime, hedged.hold, 2.0)
                    var index = firstFeasible
                    while index < count {
                        let frame = item.frames[index]
                        // Premise 4's prices are per slot: an attempt is 1 / C of the limit.
                        let gain =
                            Double(count - index) - item.linkTime * linkSuffix[frame] - slotTime * slotSuffix[frame]
                            - attempts / slots * flightCost(hold: hold, frame: frame)
                        if gain > bestGain {
                            bestGain = gain
                            bestFrame = frame
                            bestOption = (slotTime, hold, attempts)
                        }
                        index += 1
                    }
                }
                value += bestGain
                choice[position] = bestFrame
                if bestFrame >= 0 {
                    linkUse[bestFrame] += item.linkTime
                    slotUse[bestFrame] += bestOption.slotTime
                    let range = instants(hold: bestOption.hold, frame: bestFrame)
                    flightUse[range.lowerBound] += bestOption.attempts / slots
                    flightUse[range.upperBound] -= bestOption.attempts / slots
                }
            }
            history.append(choice.map { Int32($0) })
            if value < best - 1e-9 {
                best = value
                bestChoice = choice
                sinceImprovement = 0
            } else {
                sinceImprovement += 1
            }
            // The subgradient: capacity left at each frame (negative: overused).
            var norm = 0.0
            var usedLink = 0.0
            var usedSlot = 0.0
            var linkGradient = [Double](repeating: 0, count: frameCount)
            var slotGradient = [Double](repeating: 0, count: frameCount)
            for frame in 0..<frameCount {
                usedLink += linkUse[frame]
                usedSlot += slotUse[frame]
                if hasLink {
                    linkGradient[frame] = linkCapacity[frame] - usedLink
                    // A zero price with capacity to spare cannot move: not part of the norm.
                    if linkPrice[frame] > 0 || linkGradient[frame] < 0 {
                        norm += linkGradient[frame] * linkGradient[frame]
                    }
                }
                slotGradient[frame] = slotCapacity[frame] - usedSlot
                if slotPrice[frame] > 0 || slotGradient[frame] < 0 { norm += slotGradient[frame] * slotGradient[frame] }
            }
            // Premise 4: at each instant, at most C attempts (1 in units of the limit).
            var flightGradient = [Double](repeating: 0, count: instantCount)
            var inFlight = 0.0
            for instant in 0..<instantCount {
                inFlight += flightUse[instant]
                flightGradient[instant] = 1 - inFlight
                if flightPrice[instant] > 0 || flightGradient[instant] < 0 {
                    norm += flightGradient[instant] * flightGradient[instant]
                }
            }
            guard norm > 1e-18 else { break }  // the relaxation's optimum: nothing binds
            if iteration == 0 { target = best * 0.5 }
            if sinceImprovement >= 10 {
                target = (target + best) / 2  // the target was too ambitious
                sinceImprovement = 0
            }
            let step = max(value - target, 1e-9) / norm
            for frame in 0..<frameCount {
                if hasLink { linkPrice[frame] = max(0, linkPrice[frame] - step * linkGradient[frame]) }
                slotPrice[frame] = max(0, slotPrice[frame] - step * slotGradient[frame])
            }
            for instant in 0..<instantCount {
                flightPrice[instant] = max(0, flightPrice[instant] - step * flightGradient[instant])
            }
            if best - target < 1e-6 * max(1, best) { break }
        }
        let shown = min(best, Double(visibleCellFrames - latencyBound))
        let bound = visibleCellFrames - Int((shown + 1e-6).rounded(.down))
        var shownFrom: [Int: Int] = [:]
        for (position, frame) in bestChoice.enumerated() where frame >= 0 { shownFrom[items[position].id] = frame }
        return LowerBoundSolution(
            bound: LowerBound(
                blankCellFrames: max(bound, latencyBound), latencyBoundCellFrames: latencyBound, iterations: ran),
            shownFrom: shownFrom, fractions: averageChoices(of: history.suffix(max(1, history.count / 2))))
    }

    /// The average of the Lagrangian choices `iterates` made, per item: the
    /// frames chosen and how often, as a fraction of the iterates.
    func averageChoices(of iterates: ArraySlice<[Int32]>) -> [Int: [(frame: Int, weight: Double)]] {
        var fractions: [Int: [(frame: Int, weight: Double)]] = [:]
        let share = 1 / Double(max(1, iterates.count))
        for (position, item) in items.enumerated() {
            var counts: [Int: Int] = [:]
            for choice in iterates where choice[position] >= 0 { counts[Int(choice[position]), default: 0] += 1 }
            guard !counts.isEmpty else { continue }
            fractions[item.id] = counts.keys.sorted().map { ($0, Double(counts[$0]!) * share) }
        }
        return fractions
    }
}
