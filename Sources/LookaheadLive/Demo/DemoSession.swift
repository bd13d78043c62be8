#if Tools
public import Logging
import Lookahead
import LookaheadHeadless
import LookaheadSimulation

/// One run of the demo: Apple's prefetching sample driven frame by frame.
///
/// The demo is a thin driver over the library, wired as the sample is: a
/// headless ``CollectionView`` with a grid layout, whose data source and
/// prefetch data source are the library's ``ExampleFeedDataSource`` over an
/// ``AsyncFetcher``. `prefetchItemsAt` starts loads,
/// `cancelPrefetchingForItemsAt` withdraws them, `cellForItemAt` shows cached
/// data at once or asks for it at high priority and fills the cell when it
/// lands, if the cell still represents that item (and a reused cell withdraws
/// that request). The view's planner decides what to prefetch; the session
/// only moves the content offset, reads back the cells' states (a
/// ``ContentCell`` holding its value or not) and draws them. (Driving `PrefetchPlanner` directly would have meant
/// re-implementing cell reuse and the `representedIdentifier` check, which
/// is exactly what the demo is meant to show working.)
///
/// With `--compare` it runs two such grids side by side, `system` and the
/// chosen strategy, each with its own fetcher, following the same scroll
/// against the same server (see ``DemoLane``).
///
/// Each frame — 30 per second by default — the session
/// 1. moves the offset: along a seeded `flinging` scroll trace scaled to the
///    content's height, or by the keys typed (`--interactive`);
/// 2. steps the collection view to it, which asks for cells and prefetches;
/// 3. counts the visible cells whose data is missing (blank cell-frames, the
///    simulator's metric);
/// 4. draws the frame, if there is a terminal to draw on.
@MainActor
public final class DemoSession {
    /// The settings of the run.
    public let configuration: DemoConfiguration
    /// How the screen is split and points map to characters.
    public private(set) var geometry: DemoGeometry
    let feed: DemoFeed
    let terminal: DemoTerminal?
    private(set) var terminalWidth: Int
    let logger: Logger

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - configuration: the settings of the run.
    ///   - feed: where the items come from.
    ///   - terminalWidth: the terminal's width in characters.
    ///   - terminalHeight: the terminal's height in characters.
    ///   - terminal: watched for Ctrl-C; when it is in full-screen mode the
    ///     session draws on it and reads keys from it, otherwise it runs
    ///     without the UI (the scripted scroll and the counts only).
    ///   - logger: where the session logs (nowhere by default); never the
    ///     terminal it draws on.
    public init(
        configuration: DemoConfiguration, feed: DemoFeed, terminalWidth: Int = 100, terminalHeight: Int = 30,
        terminal: DemoTerminal?, logger: Logger = Logger(label: "lookahead.demo") { _ in SwiftLogNoOpLogHandler() }
    ) {
        self.configuration = configuration
        self.feed = feed
        self.geometry = Self.geometry(
            terminalWidth: terminalWidth, terminalHeight: terminalHeight, lanes: configuration.strategies.count)
        self.terminalWidth = terminalWidth
        self.terminal = terminal
        self.logger = logger
    }

    /// Runs until the scripted scroll ends, `q` is pressed or SIGINT / SIGTERM
    /// arrives, and returns what was measured: one summary per grid, in the
    /// order they are drawn (with `--compare`, `system` first).
    ///
    /// - Throws: what the feed throws while listing the items, or
    ///   ``DemoFeedError`` if it lists none.
    public func run() async throws -> [DemoSummary] {
        let identifiers = try await feed.identifiers()
        guard !identifiers.isEmpty else {
            throw DemoFeedError("the feed lists no items; expected at least one identifier")
        }
        logger.info(
            "demo starting",
            metadata: [
                "items": "\(identifiers.count)",
                "strategies": "\(configuration.strategies.map(\.rawValue).joined(separator: ","))",
            ])

        let lanes = configuration.strategies.map {
            DemoLane(
                strategy: $0, configuration: configuration, identifiers: identifiers, feed: feed, geometry: geometry)
        }
        let rowCount = (identifiers.count + geometry.columns - 1) / geometry.columns
        let contentHeight = Double(rowCount) * DemoGeometry.cellPoints
        let trace =
            configuration.isInteractive
            ? nil
            : ScrollTraceGenerator(
                seed: configuration.seed, style: configuration.script, duration: configuration.duration,
                contentHeight: contentHeight, viewportHeight: geometry.viewportHeight,
                frameRate: configuration.frameRate
            ).makeTrace()
        // An app announces where its flings and animated scrolls rest: the
        // script's, found as the simulator finds them, or the keys' flings.
        var announcer = trace.map { DemoAnnouncer(trace: $0, maxOffset: contentHeight - geometry.viewportHeight) }
        var scroller = DemoScroller(
            maxOffset: contentHeight - geometry.viewportHeight, rowHeight: DemoGeometry.cellPoints)

        var wasInterrupted = false
        let clock = ContinuousClock()
        let start = clock.now
        let frameDuration = Duration.seconds(1 / configuration.frameRate)
        var previous = Duration.zero
        var frameCount = 0
        frames: while true {
            let elapsed = clock.now - start
            if let trace, elapsed >= trace.duration + frameDuration { break }
            if let terminal {
                if terminal.wasInterrupted {
                    wasInterrupted = true
                    break
                }
                for action in DemoKeyMap.actions(for: terminal.readInput()) {
                    if action == .quit { break frames }
                    scroller.apply(action)
                }
            }
            scroller.advance(by: (elapsed - previous) / .seconds(1))
            previous = elapsed
            if let terminal, terminal.isFullScreen, terminal.takeResize(), let size = DemoTerminal.size() {
                resize(lanes, toWidth: size.width, height: size.height)
                scroller.maxOffset = (lanes.first?.collectionView.contentSize.height ?? 0) - geometry.viewportHeight
            }
            frameCount += 1
            let offset = Point(x: 0, y: trace?.offset(at: elapsed) ?? scroller.offset)
            let announcement = trace == nil ? scroller.takeAnnouncement() : announcer?.announcement(at: elapsed)
            for index in Self.steppingOrder(lanes: lanes.count, frame: frameCount) {
                lanes[index].step(to: offset, at: elapsed, announcing: announcement)
            }
            let frames = lanes.map { $0.makeFrame(identifiers: identifiers, geometry: geometry) }
            if let terminal, terminal.isFullScreen, !terminal.wasInterrupted {
                DemoTerminal.write(DemoRenderer.screen(of: frames, width: terminalWidth))
            }
            // The next frame's slot: frames that were missed are skipped, not queued.
            let next = (elapsed / frameDuration).rounded(.down) + 1
            try? await clock.sleep(until: start + frameDuration * next)
        }

        let summaries = lanes.map { $0.finish(wasInterrupted: wasInterrupted) }
        for summary in summaries { logger.info("demo finished", metadata: ["summary": "\(summary.text)"]) }
        return summaries
    }

    /// The order the grids step in on frame number `frame`: they take turns
    /// to go first, for their requests share the server, and each frame's
    /// first requests would otherwise always be the left grid's.
    nonisolated static func steppingOrder(lanes: Int, frame: Int) -> [Int] {
        frame.isMultiple(of: 2) ? Array(0..<lanes) : (0..<lanes).reversed()
    }

    /// Lays the grids out again for a terminal of the new size. The scripted
    /// trace keeps its offsets: the views clamp them to the new content.
    private func resize(_ lanes: [DemoLane], toWidth width: Int, height: Int) {
        geometry = Self.geometry(terminalWidth: width, terminalHeight: height, lanes: lanes.count)
        terminalWidth = width
        for lane in lanes { lane.resize(to: geometry) }
        logger.debug("terminal resized", metadata: ["width": "\(width)", "height": "\(height)"])
    }

    /// Each grid's share of a terminal: all of it, or half less the separator when comparing.
    nonisolated static func geometry(terminalWidth: Int, terminalHeight: Int, lanes: Int) -> DemoGeometry {
        let share = lanes > 1 ? (terminalWidth - DemoRenderer.separator.count) / lanes : terminalWidth
        return DemoGeometry(terminalWidth: max(share, DemoGeometry.cellWidth), terminalHeight: max(terminalHeight, 4))
    }
}
#endif
