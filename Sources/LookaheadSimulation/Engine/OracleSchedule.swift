import Lookahead

// The oracle's clairvoyant schedules: when it asks for each item it knows it
// will need, plan by plan. Pure: the simulator runs each plan and keeps the best.

/// The oracle's ways of scheduling what it knows it will need.
enum OraclePlan {
    /// Every item that will be seen, asked for at once, earliest first appearance first.
    case earliestDeadlineFirst
    /// The same, with the cells' display requests on top: under overload
    /// they put what is on screen now first, which favours where a fling lands.
    case earliestDeadlineFirstWithDisplayRequests
    /// Requests released so that transfers follow one another on the shared
    /// link, each as late as is still safe, skipping hopeless items.
    case pipelined
    /// Only the items the lower bound's relaxation shows, asked for at once in
    /// the order of the frame from which it shows them.
    case relaxationOrder
    /// The same items in the same order, released as `pipelined` releases them.
    case relaxationPipelined
    /// A release schedule found by ``OracleSearch``, released just in time.
    case searched([(time: Duration, item: Int)])

    /// The plans that need no search.
    static let fixedPlans: [OraclePlan] = [
        .earliestDeadlineFirst, .earliestDeadlineFirstWithDisplayRequests, .pipelined, .relaxationOrder,
        .relaxationPipelined,
    ]

    var issuesDisplayRequests: Bool {
        if case .earliestDeadlineFirstWithDisplayRequests = self { return true }
        return false
    }
}

/// One of the oracle's plans for a scenario: the times at which it asks for
/// each item, computed from the whole trace before the run starts.
struct OracleSchedule {
    let scenario: SimulationScenario
    let plan: OraclePlan

    /// When the oracle asks for each item it will need, following its plan.
    ///
    /// Items are taken earliest deadline (first appearance) first. `pipelined`
    /// predicts each load's end from the concurrency slots and, on a shared
    /// link, releases each request so that its time to first byte overlaps
    /// the transfer before it and its own transfer starts as the link frees
    /// up (loads that share a link all finish late; loads in sequence finish
    /// in deadline order); it leaves out an item that would arrive after its
    /// last appearance, which would never show its content and would only
    /// delay the others. No simple clairvoyant schedule is provably optimal
    /// under these limits; the best of the plans is the reference.
    func releases(relaxationShownFrom shownFrom: [Int: Int]) -> [(time: Duration, item: Int)] {
        let (firstAppearanceOrder, lastSeen) = deadlines()
        let relaxationOrder = shownFrom.keys.sorted { (shownFrom[$0]!, $0) < (shownFrom[$1]!, $1) }
        let order: [Int]
        switch plan {
        case .earliestDeadlineFirst, .earliestDeadlineFirstWithDisplayRequests:
            return firstAppearanceOrder.map { (.zero, $0) }
        case .relaxationOrder:
            return relaxationOrder.map { (.zero, $0) }
        case .pipelined:
            order = firstAppearanceOrder
        case .relaxationPipelined:
            order = relaxationOrder
        case .searched(let releases):
            return releases
        }
        var bitsPerSecond: Double?
        if case .bitsPerSecond(let rate) = scenario.network.bandwidth { bitsPerSecond = rate }
        var linkFree = Duration.zero
        var slotEnds = Array(repeating: Duration.zero, count: min(scenario.maxConcurrentLoads, max(1, order.count)))
        var releases: [(time: Duration, item: Int, rank: Int)] = []
        for (rank, item) in order.enumerated() {
            let latency = scenario.network.latency(forItem: item)
            let slot = slotEnds.indices.min { slotEnds[$0] < slotEnds[$1] }!
            let release: Duration
            let end: Duration
            if let bitsPerSecond {
                let transfer = Duration.seconds(
                    Double(scenario.network.payloadBytes(forItem: item)) * 8 / bitsPerSecond)
                release = max(slotEnds[slot], linkFree - latency, .zero)
                end = max(release + latency, linkFree) + transfer
            } else {
                release = .zero
                end = slotEnds[slot] + latency
            }
            guard end <= lastSeen[item]! else { continue }
            if bitsPerSecond != nil { linkFree = end }
            slotEnds[slot] = end
            releases.append((release, item, rank))
        }
        releases.sort { ($0.time, $0.rank) < ($1.time, $1.rank) }
        return releases.map { ($0.time, $0.item) }
    }

    /// Every item the trace will show, earliest first appearance first (the
    /// oracle's earliest-deadline-first order), and when each is last seen.
    func deadlines() -> (order: [Int], lastSeen: [Int: Duration]) {
        let visibility = ScenarioVisibility(scenario: scenario)
        let lastSeen = visibility.frames.mapValues { visibility.time(ofFrame: $0.last!) }
        return (visibility.itemsByFirstAppearance, lastSeen)
    }
}
