import Foundation
import Lookahead

/// Times what an app's main thread pays per frame to a coordinator: the
/// calls a `UICollectionView`'s glue makes — `scrollViewDidScroll`, a drag's
/// end announcing its fling, a cell's display request when it appears and
/// its end when it leaves — measured together with `ContinuousClock`, while
/// real loads run on an `AsyncFetcher` (6 slots, 20 ms each).
///
/// The scroll (``CoordinatorScrollScript``) repeats a cycle: a 1 s drag at
/// 1,500 pt/s, a fling from 6,000 pt/s announced at its release and coasting
/// under UIScrollView's deceleration, a rest, a 0.5 s drag back. Frames come
/// at 120 Hz in real time, so that loads land between them as in an app.
///
/// Workloads: a 4-column grid of 100,000 items on a 390×844 viewport; a
/// list of 100,000 rows of seeded heights (60–180 pt); a feed of 2,000 rows,
/// every other one a carousel of 30 items whose visible rows swipe now and
/// then (`NestedPrefetchCoordinator`). Variants: the adaptive policy with
/// hedging (`.recommended`, as the README's example), the same without its
/// learned reach (`gestureReach: nil`), without hedging, and UIKit's
/// window (`.system`). And a floor, asked for by name (`wake`): frames that
/// only hand a task to the thread pool, as often as the grid's frames show
/// a new row, which is what starting a cell's load costs the main thread
/// before any decision.
@MainActor
public struct CoordinatorBenchmark {
    /// What is timed.
    public enum Workload: String, CaseIterable, Sendable, Codable {
        case grid
        case list
        case nested
        /// The list's rows self-sizing: the content grows on every frame as
        /// cells are measured (estimated heights), the counts unchanged.
        case selfSizing = "self-sizing"
        /// Not a coordinator: a frame that only starts a task now and then (every eighth frame).
        case wake

        /// The coordinators' workloads, run by default.
        public static var coordinators: [Workload] { [.grid, .list, .nested, .selfSizing] }
    }

    /// How the coordinator and its fetcher are made.
    public enum Variant: String, CaseIterable, Sendable, Codable {
        case adaptiveHedging = "adaptive-hedging"
        /// As `adaptiveHedging`, without the learned reach: what it costs a frame.
        case adaptiveNoReach = "adaptive-no-reach"
        case adaptive
        case system
        /// The floor's: no coordinator.
        case none

        /// The coordinators' variants, run by default.
        public static var coordinators: [Variant] { [.adaptiveHedging, .adaptiveNoReach, .adaptive, .system] }
    }

    /// One workload and variant's figures, per frame, in microseconds.
    public struct Result: Sendable, Codable {
        public var workload: Workload
        public var variant: Variant
        public var frames: Int
        public var medianMicroseconds: Double
        public var p90Microseconds: Double
        public var p99Microseconds: Double
        public var maxMicroseconds: Double
        /// Loads the fetcher started during the run: the work was real.
        public var loadsStarted: Int
    }

    /// The `--json` form.
    public struct Report: Sendable, Codable {
        public var cycles: Int
        public var results: [Result] = []
    }

    public var cycles: Int
    public var workloads: [Workload]
    public var variants: [Variant]
    public var seed: UInt64

    public init(
        cycles: Int = 6, workloads: [Workload] = Workload.coordinators, variants: [Variant] = Variant.coordinators,
        seed: UInt64 = 0x5EED_F00D
    ) {
        precondition(cycles >= 1, "CoordinatorBenchmark: cycles must be at least 1, got \(cycles)")
        self.cycles = cycles
        self.workloads = workloads
        self.variants = variants
        self.seed = seed
    }

    static let viewport = Size(width: 390, height: 844)
    static let frameInterval = Duration.seconds(1) / 120

    public func run(progress: @Sendable (String) -> Void) async -> Report {
        var report = Report(cycles: cycles)
        for workload in workloads {
            // The floor has no coordinator to vary; the coordinators, no floor's variant.
            let measured = workload == .wake ? [Variant.none] : variants.filter { $0 != .none }
            for variant in measured {
                progress("timing the coordinator: \(workload.rawValue), \(variant.rawValue)…")
                report.results.append(await measure(workload, variant))
            }
        }
        return report
    }

    private func makeFetcher(_ variant: Variant) -> AsyncFetcher<Int, Int> {
        AsyncFetcher(
            maxConcurrentLoads: 6, memoryCache: MemoryCache(countLimit: 2_000, trimsOnMemoryPressure: false),
            hedging: variant == .adaptiveHedging || variant == .adaptiveNoReach ? .recommended : .off
        ) { key in
            try await Task.sleep(for: .milliseconds(20))
            return key
        }
    }

    private func measure(_ workload: Workload, _ variant: Variant) async -> Result {
        let fetcher = makeFetcher(variant)
        let window = AdaptivePrefetchPolicy(gestureReach: variant == .adaptiveNoReach ? nil : .shipped)
        let policy: PrefetchPolicy = variant == .system ? .system : .adaptive(window)
        var driver: any CoordinatorBenchmarkDriver =
            switch workload {
            case .grid:
                FlatListDriver(
                    fetcher: fetcher, policy: policy,
                    layout: UniformGridLayout(
                        width: Self.viewport.width, columns: 4, itemCount: 100_000, spacing: 0, aspectRatio: 1))
            case .list:
                FlatListDriver(fetcher: fetcher, policy: policy, layout: Self.variableList(seed: seed))
            case .selfSizing:
                FlatListDriver(
                    fetcher: fetcher, policy: policy, layout: Self.variableList(seed: seed), measuredPerFrame: 3)
            case .nested:
                NestedFeedDriver(fetcher: fetcher, policy: policy, window: window, seed: seed)
            case .wake:
                WakeDriver()
            }
        let script = CoordinatorScrollScript(cycles: cycles, frameInterval: Self.frameInterval)
        let clock = ContinuousClock()
        let start = clock.now
        var samples: [Duration] = []
        samples.reserveCapacity(script.frames.count)
        for (index, frame) in script.frames.enumerated() {
            let time = Self.frameInterval * index
            // What the view shows is the view's business: worked out before the clock starts.
            driver.prepare(frame)
            let began = clock.now
            driver.show(frame, at: time)
            samples.append(began.duration(to: clock.now))
            // Frames come at 120 Hz: loads land and deliver between them.
            try? await clock.sleep(until: start.advanced(by: Self.frameInterval * (index + 1)))
        }
        driver.end()
        let started = fetcher.statistics.loadsStarted
        await fetcher.waitUntilIdle()
        let sorted = samples.map { $0 / .microseconds(1) }.sorted()
        func quantile(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * q))] }
        return Result(
            workload: workload, variant: variant, frames: sorted.count, medianMicroseconds: quantile(0.5),
            p90Microseconds: quantile(0.9), p99Microseconds: quantile(0.99), maxMicroseconds: sorted.last ?? 0,
            loadsStarted: started)
    }

    /// 100,000 rows of seeded heights from 60 to 180 pt.
    static func variableList(seed: UInt64) -> ListLayout {
        var state = seed
        let heights = (0..<100_000).map { _ -> Double in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return 60 + Double((state >> 33) % 121)
        }
        return ListLayout(width: viewport.width, rowHeights: heights)
    }
}

/// One frame of the benchmark's scroll: the offset, and what the scroll view
/// tells its delegate on that frame besides.
public struct CoordinatorScrollFrame: Sendable {
    public enum Event: Sendable {
        /// A drag begins (`scrollViewWillBeginDragging`).
        case dragBegan
        /// A drag ends in a fling (`scrollViewWillEndDragging`), at this
        /// velocity (pt/s), coming to rest at this offset.
        case flingReleased(velocity: Double, target: Double)
    }

    public var offset: Double
    public var event: Event?
}

/// The benchmark's scroll, cycle after cycle: a 1 s drag at 1,500 pt/s, a
/// fling from 6,000 pt/s, a 0.5 s rest, a 0.5 s drag back.
public struct CoordinatorScrollScript: Sendable {
    public var frames: [CoordinatorScrollFrame] = []

    public init(cycles: Int, frameInterval: Duration) {
        let dt = frameInterval / .seconds(1)
        var offset = 2_000.0
        for _ in 0..<cycles {
            frames.append(CoordinatorScrollFrame(offset: offset, event: .dragBegan))
            for _ in 0..<Int(1 / dt) {
                offset += 1_500 * dt
                frames.append(CoordinatorScrollFrame(offset: offset))
            }
            // UIScrollView's deceleration: v(t) = v0 · 0.998^(t in ms), resting 0.499 · v0 away.
            let velocity = 6_000.0
            let start = offset
            let k = -log(0.998) * 1_000
            frames.append(
                CoordinatorScrollFrame(
                    offset: offset, event: .flingReleased(velocity: velocity, target: start + velocity / k)))
            var t = 0.0
            while velocity * pow(0.998, t * 1_000) > 10 {
                t += dt
                offset = start + velocity / k * (1 - exp(-k * t))
                frames.append(CoordinatorScrollFrame(offset: offset))
            }
            for _ in 0..<Int(0.5 / dt) { frames.append(CoordinatorScrollFrame(offset: offset)) }
            frames.append(CoordinatorScrollFrame(offset: offset, event: .dragBegan))
            for _ in 0..<Int(0.5 / dt) {
                offset -= 1_500 * dt
                frames.append(CoordinatorScrollFrame(offset: offset))
            }
        }
    }
}

/// Makes the calls a scroll view's glue makes, for one workload.
@MainActor
protocol CoordinatorBenchmarkDriver {
    /// Works out, untimed, which cells the frame shows.
    mutating func prepare(_ frame: CoordinatorScrollFrame)
    /// Makes the frame's calls: what is timed.
    mutating func show(_ frame: CoordinatorScrollFrame, at time: Duration)
    mutating func end()
}

/// The scroll calls both coordinators take, as a scroll view's delegate makes them.
@MainActor
protocol BenchmarkedScrolling {
    func scrollViewDidEndFling()
    func scrollViewWillEndDragging(
        velocity: Double, targetContentOffset: Point, contentOffset: Point, viewportSize: Size, at time: Duration)
    func scrollViewDidScroll(contentOffset: Point, viewportSize: Size, at time: Duration)
}

extension PrefetchCoordinator: BenchmarkedScrolling {}
extension NestedPrefetchCoordinator: BenchmarkedScrolling {}

extension CoordinatorScrollFrame {
    /// Makes the frame's scroll calls: a drag's start, a fling's release, the scroll.
    @MainActor
    func report(to coordinator: some BenchmarkedScrolling, at time: Duration) {
        let viewport = CoordinatorBenchmark.viewport
        let offset = Point(x: 0, y: self.offset)
        switch event {
        case .dragBegan:
            coordinator.scrollViewDidEndFling()
        case .flingReleased(let velocity, let target):
            coordinator.scrollViewWillEndDragging(
                velocity: velocity, targetContentOffset: Point(x: 0, y: target), contentOffset: offset,
                viewportSize: viewport, at: time)
        case nil:
            break
        }
        coordinator.scrollViewDidScroll(contentOffset: offset, viewportSize: viewport, at: time)
    }
}

/// A `PrefetchCoordinator` over a flat layout, with a cell per visible item.
@MainActor
struct FlatListDriver: CoordinatorBenchmarkDriver {
    let coordinator: PrefetchCoordinator<Int, Int>
    let layout: any CollectionLayout
    var visible: Set<ItemPath> = []
    var appeared: [ItemPath] = []
    var departed: [ItemPath] = []
    var cells = BenchmarkCells<ItemPath>()

    /// What measuring cells adds to the content size on every frame (0: fixed sizes).
    let measuredPerFrame: Double
    let source: MeasuredLayoutSource

    init(
        fetcher: AsyncFetcher<Int, Int>, policy: PrefetchPolicy, layout: some CollectionLayout,
        measuredPerFrame: Double = 0
    ) {
        self.layout = layout
        self.measuredPerFrame = measuredPerFrame
        let source = MeasuredLayoutSource(layout: layout)
        self.source = source
        coordinator = PrefetchCoordinator(fetcher: fetcher, layoutSource: source, policy: policy) { path in
            layout.flatIndex(of: path)
        }
    }

    mutating func show(_ frame: CoordinatorScrollFrame, at time: Duration) {
        source.measured += measuredPerFrame
        frame.report(to: coordinator, at: time)
        for path in appeared { coordinator.requestDisplay(at: path, for: cells.dequeue(for: path)) { _ in } }
        for path in departed { coordinator.didEndDisplaying(cells.reuse(at: path)) }
    }

    mutating func prepare(_ frame: CoordinatorScrollFrame) {
        let viewport = CoordinatorBenchmark.viewport
        let now = Set(layout.itemPaths(in: Rect(x: 0, y: frame.offset, width: viewport.width, height: viewport.height)))
        appeared = now.subtracting(visible).sorted()
        departed = visible.subtracting(now).sorted()
        visible = now
    }

    mutating func end() {
        coordinator.reloadData()
    }
}

/// The floor: every eighth frame starts a task that sleeps as a load does,
/// and does nothing else.
@MainActor
struct WakeDriver: CoordinatorBenchmarkDriver {
    var frame = 0

    mutating func prepare(_ frame: CoordinatorScrollFrame) {}

    mutating func show(_ frame: CoordinatorScrollFrame, at time: Duration) {
        self.frame += 1
        guard self.frame % 8 == 0 else { return }
        Task.detached { try? await Task.sleep(for: .milliseconds(20)) }
    }

    mutating func end() {}
}

/// A `NestedPrefetchCoordinator` over a feed whose every other row is a
/// carousel; visible carousels are swiped every 30 frames.
@MainActor
struct NestedFeedDriver: CoordinatorBenchmarkDriver {
    let coordinator: NestedPrefetchCoordinator<Int, Int>
    let layout: CarouselFeedLayout
    let rowTops: [Double]
    var links: [Int: NestedCollectionLink<Int, Int>] = [:]
    var cells = BenchmarkCells<NestedItemPath>()
    var visibleItems: Set<NestedItemPath> = []
    var frameCount = 0
    var rowsOnScreen: [Int] = []

    init(fetcher: AsyncFetcher<Int, Int>, policy: PrefetchPolicy, window: AdaptivePrefetchPolicy, seed: UInt64) {
        let rows = (0..<2_000).map { row -> CarouselFeedLayout.Row in
            row % 2 == 0
                ? .carousel(height: 180, itemWidth: 120, itemCount: 30, spacing: 8) : .cell(height: 90)
        }
        let layout = CarouselFeedLayout(width: CoordinatorBenchmark.viewport.width, rows: rows)
        self.layout = layout
        var top = 0.0
        rowTops = rows.map { row in
            defer { top += row.height }
            return top
        }
        let nestedPolicy: PrefetchPolicy = policy.isSystem ? .system : .adaptiveRows(for: window)
        let carouselPolicy: PrefetchPolicy = policy.isSystem ? .system : .adaptiveCarousel(for: window)
        coordinator = NestedPrefetchCoordinator(
            fetcher: fetcher, layout: layout, policy: nestedPolicy, carouselPolicy: carouselPolicy
        ) { path in path.row * 100 + path.item }
    }

    mutating func show(_ frame: CoordinatorScrollFrame, at time: Duration) {
        frame.report(to: coordinator, at: time)
        frameCount += 1
        // The rows on screen: a carousel row has its link, and shows the items at its offset.
        let rows = rowsOnScreen
        var now: Set<NestedItemPath> = []
        for row in rows where layout.itemCount(inRow: row) > 1 {
            let link = links[row] ?? coordinator.registerNested(forRow: row)
            links[row] = link
            if frameCount % 30 == 0 {
                link.scrollViewDidScroll(
                    contentOffsetX: min(link.contentOffset + 128, layout.maxOffset(ofRow: row)), at: time)
            }
            for item in layout.items(inRow: row, atOffset: link.contentOffset) {
                now.insert(NestedItemPath(row: row, item: item))
            }
        }
        for path in now.subtracting(visibleItems) {
            coordinator.requestDisplay(at: path, for: cells.dequeue(for: path)) { _ in }
        }
        for path in visibleItems.subtracting(now) { coordinator.didEndDisplaying(cells.reuse(at: path)) }
        visibleItems = now
        for (row, link) in links where !rows.contains(row) {
            coordinator.unregisterNested(link)
            links[row] = nil
        }
    }

    mutating func prepare(_ frame: CoordinatorScrollFrame) {
        let viewport = CoordinatorBenchmark.viewport
        var first = 0
        var low = 0
        var high = rowTops.count
        while low < high {
            let middle = (low + high) / 2
            if rowTops[middle] + 180 > frame.offset { high = middle } else { low = middle + 1 }
        }
        first = max(0, low - 1)
        rowsOnScreen = []
        var row = first
        while row < rowTops.count, rowTops[row] < frame.offset + viewport.height {
            if rowTops[row] + layout.rows[row].height > frame.offset { rowsOnScreen.append(row) }
            row += 1
        }
    }

    mutating func end() {
        coordinator.reloadData(layout: layout)
    }
}

extension PrefetchPolicy {
    /// Whether this is UIKit's window.
    var isSystem: Bool {
        if case .system = kind { return true }
        return false
    }
}

/// The cells a benchmark's view shows, reused as a collection view's are:
/// a display request belongs to its cell.
struct BenchmarkCells<Path: Hashable> {
    final class Cell {}
    private var shown: [Path: Cell] = [:]
    private var pool: [Cell] = []

    /// A cell for `path`: one that left the screen, or a new one.
    mutating func dequeue(for path: Path) -> Cell {
        let cell = pool.popLast() ?? Cell()
        shown[path] = cell
        return cell
    }

    /// The cell that showed `path`, back in the pool.
    mutating func reuse(at path: Path) -> Cell {
        let cell = shown.removeValue(forKey: path) ?? Cell()
        pool.append(cell)
        return cell
    }
}

/// A layout's frames with a content size that grows as cells are measured:
/// what a list with estimated heights reports.
@MainActor
final class MeasuredLayoutSource: PrefetchLayoutSource {
    let layout: any CollectionLayout
    /// What measuring cells added to the content size so far.
    var measured = 0.0

    init(layout: any CollectionLayout) {
        self.layout = layout
    }

    var contentSize: Size { Size(width: layout.contentSize.width, height: layout.contentSize.height + measured) }
    var numberOfSections: Int { layout.numberOfSections }
    func numberOfItems(inSection section: Int) -> Int { layout.numberOfItems(inSection: section) }
    func itemFrames(in rect: Rect) -> [ItemFrame] {
        layout.itemPaths(in: rect).map { ItemFrame(path: $0, frame: layout.frame(at: $0)) }
    }
}
