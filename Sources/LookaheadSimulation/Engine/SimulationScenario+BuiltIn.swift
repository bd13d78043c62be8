import Lookahead

extension SimulationScenario {
    /// The names of the built-in scenarios, in the order they run.
    public static let builtInNames = ["feed", "photos", "fling", "jump", "slow-network"]

    /// A built-in scenario, or `nil` for an unknown name.
    ///
    /// - `feed`: a table of 10,000 rows of 60–180 pt, JSON items of ~2 KB,
    ///   latency median 120 ms / p99 800 ms, 6 concurrent loads, a 2-minute
    ///   human reading trace with flings.
    /// - `photos`: a 4-column grid of 100,000 thumbnails of ~60 KB over a
    ///   shared 20 Mbit/s link, latency 80 / 400 ms, fast flings and reversals.
    /// - `fling`: the feed's table under long flings of 6,000–10,000 pt/s with reversals.
    /// - `jump`: the feed's table, read, then jumped to the top and back deep.
    /// - `slow-network`: the feed on a 3G-like link (600 ms / 3 s, 400 kbit/s).
    public static func builtIn(named name: String, seed: UInt64, duration: Duration? = nil) -> SimulationScenario? {
        let viewport = Size(width: 390, height: 844)
        func feedRows() -> [Double] {
            var random = TraceRandom(seed: seed ^ 0xFEED)
            return (0..<10_000).map { _ in 60 + Double(random.next() % 121) }
        }
        func trace(_ style: ScrollTraceGenerator.Style, _ length: Duration, contentHeight: Double) -> ScrollTrace {
            ScrollTraceGenerator(
                seed: seed, style: style, duration: duration ?? length, contentHeight: contentHeight,
                viewportHeight: viewport.height
            ).makeTrace()
        }
        switch name {
        case "feed", "fling", "jump", "slow-network":
            let rows = feedRows()
            let height = rows.reduce(0, +)
            let style: ScrollTraceGenerator.Style
            let length: Duration
            switch name {
            case "fling": (style, length) = (.flinging, .seconds(60))
            case "jump": (style, length) = (.jumping, .seconds(90))
            default: (style, length) = (.reading, .seconds(120))
            }
            return SimulationScenario(
                name: name, layout: .list(rowHeights: rows), viewport: viewport,
                network: name == "slow-network" ? .slowNetwork(seed: seed) : .feed(seed: seed),
                maxConcurrentLoads: 6, trace: trace(style, length, contentHeight: height))
        case "photos":
            let layout = SimulationScenario.Layout.grid(columns: 4, itemCount: 100_000, spacing: 2, aspectRatio: 1)
            let probe = GridLayout(width: viewport.width, columns: 4, itemCount: 100_000, spacing: 2, aspectRatio: 1)
            return SimulationScenario(
                name: name, layout: layout, viewport: viewport, network: .photos(seed: seed), maxConcurrentLoads: 6,
                trace: trace(.photos, .seconds(60), contentHeight: probe.contentSize.height))
        default:
            return nil
        }
    }
}
