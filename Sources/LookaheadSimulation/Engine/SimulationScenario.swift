public import Lookahead

/// Everything one simulated run depends on: the list, the device, the
/// network, the trace.
public struct SimulationScenario: Sendable {
    /// How the items are laid out.
    public enum Layout: Sendable {
        /// A table of one section with the given row heights.
        case list(rowHeights: [Double])
        /// A grid of one section.
        case grid(columns: Int, itemCount: Int, spacing: Double, aspectRatio: Double)
        /// A vertical feed whose rows may be horizontal carousels
        /// (``CarouselFeedLayout``), the viewport's width wide; each row's
        /// horizontal offset comes from the trace (``ScrollTrace/rowOffset(ofRow:at:)``).
        case carousels(rows: [CarouselFeedLayout.Row])
    }

    public var name: String
    public var layout: Layout
    public var viewport: Size
    public var frameRate: Double
    public var network: NetworkModel
    public var maxConcurrentLoads: Int
    public var trace: ScrollTrace
    /// The direction the app's view scrolls. The simulation runs along the
    /// scroll whatever it is (its layout, viewport and trace are the
    /// view's along that axis); a horizontal scenario's coordinator is
    /// handed the view's own geometry — the transpose — as an app's is.
    public var axis: ScrollAxis = .vertical
    /// The decode between a load's bytes arriving and its cell showing them
    /// (an image's), or `nil` when the data needs none.
    public var decoding: DecodeModel?
    /// How long before the view shows its first frame the app starts the
    /// first screen's loads (`AsyncFetcher.prefetchFirstScreen(_:)` on a
    /// tap's touch-down, say): every strategy asks for the first frame's
    /// items — or its first page — that long before, and the lower bound
    /// lets those items' loads start then. Zero: loads start with the view.
    public var startLead: Duration = .zero
    /// The gestures the trace was drawn from (a built-in scenario's
    /// generator style), or `nil` for a recorded trace: what the causal
    /// reference knows of how users scroll (``Simulator/runCausalReference(samples:)``).
    public var gestures: ScrollTraceGenerator.Style?

    /// Creates a scenario.
    ///
    /// The settings are checked by ``validate()`` (every property can be set
    /// later, so a check here would not be enough); ``Simulator`` runs only
    /// scenarios that pass it.
    public init(
        name: String, layout: Layout, viewport: Size = Size(width: 390, height: 844), frameRate: Double = 60,
        network: NetworkModel, maxConcurrentLoads: Int = 6, trace: ScrollTrace
    ) {
        self.name = name
        self.layout = layout
        self.viewport = viewport
        self.frameRate = frameRate
        self.network = network
        self.maxConcurrentLoads = maxConcurrentLoads
        self.trace = trace
    }

    /// A decode stage: each load's data is decoded, `serviceTime` of one
    /// core's work, at most `slots` at once, the most urgent load's first —
    /// as `LookaheadImages`' decode queue does — and the load holds its
    /// concurrency slot until its decode ends, as an image fetcher's does.
    public struct DecodeModel: Sendable, Hashable {
        public var serviceTime: Duration
        public var slots: Int

        public init(serviceTime: Duration, slots: Int) {
            self.serviceTime = serviceTime
            self.slots = slots
        }
    }

    /// The layout, built for the viewport's width (a carousel feed as a
    /// ``CarouselFeedCollection``: one flat index per item of every row).
    public func makeLayout() -> any CollectionLayout {
        switch layout {
        case .carousels:
            makeCarouselFeed()!
        case .list(let heights):
            ListLayout(width: viewport.width, rowHeights: heights)
        case .grid(let columns, let itemCount, let spacing, let aspectRatio):
            UniformGridLayout(
                width: viewport.width, columns: columns, itemCount: itemCount, spacing: spacing,
                aspectRatio: aspectRatio)
        }
    }

    /// The carousel feed, built for the viewport's width, or `nil` when the
    /// layout is not ``Layout/carousels(rows:)``.
    ///
    /// - Complexity: O(rows).
    public func makeCarouselFeed() -> CarouselFeedCollection? {
        guard case .carousels(let rows) = layout else { return nil }
        return CarouselFeedCollection(feed: CarouselFeedLayout(width: viewport.width, rows: rows))
    }
}
