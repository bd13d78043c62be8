#if Tools
import Lookahead
public import LookaheadSimulation

// A demo run as the simulator sees it, so that what the grids show live can
// be set beside what the simulator predicts for the same run.

extension DemoConfiguration {
    /// The terminal a run without a drawn grid lays its grids out for
    /// (`--no-ui`, or standard output not a terminal): 100 × 30 characters.
    public static let headlessTerminal = (width: 100, height: 30)

    /// The demo's run as a simulated scenario: the same grid (``DemoGeometry``:
    /// columns of 96 pt cells, the viewport of a terminal `terminalWidth` ×
    /// `terminalHeight` split for ``strategies``), the same item count,
    /// scripted scroll (``script``, ``seed``, ``duration``, ``frameRate``),
    /// concurrency limit and latency (log-normal, its median and 99th
    /// percentile; none when the median is 0), items of ~200 bytes over a
    /// link without a bandwidth cap, as the feed server serves them.
    ///
    /// `lookahead demo --simulate` prints each grid's simulated blank ratio
    /// from it.
    public func simulatedScenario(
        terminalWidth: Int = headlessTerminal.width, terminalHeight: Int = headlessTerminal.height
    ) -> SimulationScenario {
        let geometry = DemoSession.geometry(
            terminalWidth: terminalWidth, terminalHeight: terminalHeight, lanes: strategies.count)
        let rowCount = (itemCount + geometry.columns - 1) / geometry.columns
        let trace = ScrollTraceGenerator(
            seed: seed, style: script, duration: duration, contentHeight: Double(rowCount) * DemoGeometry.cellPoints,
            viewportHeight: geometry.viewportHeight, frameRate: frameRate
        ).makeTrace()
        let latency: NetworkModel.LatencyDistribution =
            latencyMedian > .zero ? .logNormal(median: latencyMedian, p99: latencyP99) : .fixed(.zero)
        return SimulationScenario(
            name: "demo-\(script.rawValue)",
            layout: .grid(columns: geometry.columns, itemCount: itemCount, spacing: 0, aspectRatio: 1),
            viewport: Size(width: geometry.contentWidth, height: geometry.viewportHeight), frameRate: frameRate,
            network: NetworkModel(seed: seed, latency: latency, payload: .uniform(150...250)),
            maxConcurrentLoads: maxConcurrentLoads, trace: trace)
    }
}
#endif
