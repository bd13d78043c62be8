// The built-in scenarios: layout, viewport, network and trace of each.

import Lookahead

extension SimulationScenario {
    /// The names of the built-in scenarios, in the order they run.
    public static let builtInNames = ["feed", "photos", "fling", "jump", "slow-network", "carousels"]

    /// Scenarios that run when named (`--scenario`), not by default.
    public static let extraNames = ["photos-sideways"]

    /// A built-in scenario, or `nil` for an unknown name.
    ///
    /// - `feed`: a table of 10,000 rows of 60–180 pt, JSON items of ~2 KB,
    ///   latency median 120 ms / p99 800 ms, 6 concurrent loads, a 2-minute
    ///   human reading trace with flings.
    /// - `photos`: a 4-column grid of 100,000 thumbnails of ~60 KB over a
    ///   shared 20 Mbit/s link, latency 80 / 400 ms, fast flings and reversals;
    ///   each thumbnail decoded for its cell (``DecodeModel/photoThumbnails``).
    /// - `fling`: the feed's table under long flings of 6,000–10,000 pt/s with reversals.
    /// - `jump`: the feed's table, read, then jumped to the top and back deep.
    /// - `slow-network`: the feed on a 3G-like link (600 ms / 3 s, 400 kbit/s).
    /// - `carousels`: a feed of 1,000 rows, a fifth plain cells of 60–180 pt,
    ///   the others carousels of 100–300 pt with 20–100 items each (0.6–1.2
    ///   times as wide as the row is high, 8 pt apart), the feed's network,
    ///   a minute of skimming with horizontal swipes into some rows
    ///   (``CarouselTraceGenerator``).
    /// - `photos-sideways`: `photos` turned on its side — 4 rows scrolling
    ///   left and right in a landscape view (844 × 390), a photo strip's
    ///   geometry — the same trace along the scroll.
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
            var scenario = SimulationScenario(
                name: name, layout: .list(rowHeights: rows), viewport: viewport,
                network: name == "slow-network" ? .slowNetwork(seed: seed) : .feed(seed: seed),
                maxConcurrentLoads: 6, trace: trace(style, length, contentHeight: height))
            scenario.gestures = style
            return scenario
        case "photos":
            let layout = SimulationScenario.Layout.grid(columns: 4, itemCount: 100_000, spacing: 2, aspectRatio: 1)
            let probe = UniformGridLayout(
                width: viewport.width, columns: 4, itemCount: 100_000, spacing: 2, aspectRatio: 1)
            var photos = SimulationScenario(
                name: name, layout: layout, viewport: viewport, network: .photos(seed: seed), maxConcurrentLoads: 6,
                trace: trace(.photos, .seconds(60), contentHeight: probe.contentSize.height))
            photos.decoding = .photoThumbnails
            photos.gestures = .photos
            return photos
        case "photos-sideways":
            guard var photos = builtIn(named: "photos", seed: seed, duration: duration) else { return nil }
            photos.name = name
            photos.axis = .horizontal
            return photos
        case "carousels":
            let rows = carouselRows(seed: seed)
            let feed = CarouselFeedLayout(width: viewport.width, rows: rows)
            let trace = CarouselTraceGenerator(
                seed: seed, style: .skimming, duration: duration ?? .seconds(60), feed: feed,
                viewportHeight: viewport.height
            ).makeTrace()
            return SimulationScenario(
                name: name, layout: .carousels(rows: rows), viewport: viewport, network: .feed(seed: seed),
                maxConcurrentLoads: 6, trace: trace)
        default:
            return nil
        }
    }

    /// The `carousels` scenario's rows, drawn from `seed`.
    static func carouselRows(seed: UInt64) -> [CarouselFeedLayout.Row] {
        var random = TraceRandom(seed: seed ^ 0xCA20_05E1)
        return (0..<1_000).map { _ in
            if random.chance(0.2) { return .cell(height: 60 + Double(random.next() % 121)) }
            let height = 100 + Double(random.next() % 201)
            let itemWidth = (height * random.uniform(0.6...1.2)).rounded()
            return .carousel(height: height, itemWidth: itemWidth, itemCount: 20 + Int(random.next() % 81), spacing: 8)
        }
    }
}

extension SimulationScenario.DecodeModel {
    /// A ~60 KB photo decoded by ImageIO's thumbnail path to a 120-point
    /// cell at 3× (≤ 360 pixels): 8 ms of one core, on 4 cores — an
    /// efficiency core's time, and the cores an app's decodes get while the
    /// main thread scrolls, so that the model errs slow.
    public static let photoThumbnails = Self(serviceTime: .milliseconds(8), slots: 4)
}
