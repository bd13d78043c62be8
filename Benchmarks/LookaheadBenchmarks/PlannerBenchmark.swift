import Lookahead

/// Times one `PrefetchPlanner` update — a frame of steady scrolling — on lists
/// of 10,000 and 1,000,000 items, to show that the cost follows the window,
/// not the list.
///
/// Each list has seeded heights of 60–180 pt on a 390×844 viewport; the
/// planner follows a scroll of 10 pt per frame (600 pt/s at 60 Hz) starting
/// in the middle of the list and turning back at either end (``BouncingScroll``:
/// a list run past its end has nothing to plan, so any `frames` compares),
/// once with `.system` and once with `.adaptive`.
/// As in an app, loads complete while it scrolls: every third frame the
/// planner is told of one that took a seeded 60–800 ms (the adaptive policy
/// keeps a running quantile of them; the system policy ignores them), and
/// that telling is timed with the frame. Every update is timed on its own; the report gives the median and the 99th
/// percentile. It also times ``ScrollTraceRecorder/record(_:targetOffset:)``,
/// the per-frame cost of recording a trace in an app, in batches of 1,000
/// frames (one frame is below the clock's resolution).
public struct PlannerBenchmark: Sendable {
    public var seed: UInt64
    public var frames: Int
    public var warmUpFrames: Int

    public init(seed: UInt64 = 0x5EED_F00D, frames: Int = 20_000, warmUpFrames: Int = 2_000) {
        self.seed = seed
        self.frames = frames
        self.warmUpFrames = warmUpFrames
    }

    /// One list size's figures.
    public struct Result: Sendable, Codable {
        public var name: String
        public var items: Int
        public var medianNs: Double
        public var p99Ns: Double
    }

    /// The `--json` form: the rows and median(1M) / median(10k) per policy.
    public struct Report: Sendable, Codable {
        public var results: [Result] = []
        /// median(1M) / median(10k) with `.system`.
        public var ratio: Double = 0
        /// median(1M) / median(10k) with `.adaptive`.
        public var adaptiveRatio: Double = 0
    }

    public func run(progress: @Sendable (String) -> Void) -> Report {
        var report = Report()
        for (name, policy) in [("system", PrefetchPolicy.system), ("adaptive", .adaptive)] {
            var medians: [Double] = []
            for items in [10_000, 1_000_000] {
                progress("timing \(name) planner updates on \(items) items…")
                let result = measure(items: items, policy: policy, name: "\(name)-\(items)")
                medians.append(result.medianNs)
                report.results.append(result)
            }
            let ratio = medians[0] > 0 ? medians[1] / medians[0] : 0
            if name == "system" { report.ratio = ratio } else { report.adaptiveRatio = ratio }
        }
        progress("timing nested planner updates on 100 carousels of 100 items…")
        report.results.append(measureNested())
        progress("timing the trace recorder…")
        report.results.append(measureRecorder())
        return report
    }

    /// A feed of 100 carousels of 100 items (200 pt rows, 120 pt items): the
    /// feed scrolls at 600 pt/s while the carousel nearest the middle of the
    /// screen is swiped at 900 pt/s.
    func measureNested() -> Result {
        let rows = (0..<100).map { _ in
            CarouselFeedLayout.Row.carousel(height: 200, itemWidth: 120, itemCount: 100, spacing: 10)
        }
        let layout = CarouselFeedLayout(width: 390, rows: rows)
        var planner = NestedPrefetchPlanner(layout: layout)
        let viewport = Size(width: 390, height: 844)
        var scroll = BouncingScroll(start: 0, contentHeight: layout.outer.contentSize.height, viewport: viewport)
        let clock = ContinuousClock()
        var samples: [Duration] = []
        var emitted = 0
        for frame in 0..<(warmUpFrames + frames) {
            let scrollFrame = scroll.next()
            let row = min(99, Int((scrollFrame.visibleRect.minY + viewport.height / 2) / 200))
            let swipe = NestedPrefetchPlanner.CarouselScroll(
                row: row, offset: Double(frame % 600) * 15, velocity: 900)
            let start = clock.now
            let update = planner.update(scrollFrame, carousels: [swipe])
            let elapsed = start.duration(to: clock.now)
            emitted &+= update.prefetch.count &+ update.cancel.count
            if frame >= warmUpFrames { samples.append(elapsed) }
        }
        blackHole(emitted)
        samples.sort()
        return Result(
            name: "nested-100x100", items: 10_000, medianNs: samples[samples.count / 2].nanoseconds,
            p99Ns: samples[min(samples.count - 1, samples.count * 99 / 100)].nanoseconds)
    }

    /// The recorder's cost per frame: batches of 1,000 frames timed whole.
    func measureRecorder() -> Result {
        let batch = 1_000
        var recorder = ScrollTraceRecorder()
        let viewport = Size(width: 390, height: 844)
        let clock = ContinuousClock()
        var samples: [Duration] = []
        var time = Duration.zero
        let warmUpRounds = max(1, warmUpFrames / batch)
        for round in 0..<(warmUpRounds + max(1, frames / batch)) {
            let start = clock.now
            for frame in 0..<batch {
                time += .nanoseconds(16_666_667)
                recorder.record(
                    ScrollFrame(
                        visibleRect: Rect(origin: Point(x: 0, y: Double(frame) * 10), size: viewport), velocity: 600,
                        time: time))
            }
            let elapsed = start.duration(to: clock.now)
            if round >= warmUpRounds { samples.append(elapsed / batch) }
        }
        blackHole(recorder.samples.count)
        samples.sort()
        let median = samples.isEmpty ? .zero : samples[samples.count / 2]
        let p99 = samples.isEmpty ? .zero : samples[min(samples.count - 1, samples.count * 99 / 100)]
        return Result(name: "recorder", items: 0, medianNs: median.nanoseconds, p99Ns: p99.nanoseconds)
    }

    func measure(items: Int, policy: PrefetchPolicy, name: String) -> Result {
        var generator = SplitMix64(seed: seed ^ UInt64(items))
        let heights = (0..<items).map { _ in 60 + Double(generator.next(upperBound: 121 as UInt64)) }
        let layout = ListLayout(width: 390, heights: [heights])
        var planner = PrefetchPlanner(layout: layout, policy: policy)
        var scroll = Self.listScroll(over: layout)
        let clock = ContinuousClock()
        var samples: [Duration] = []
        samples.reserveCapacity(frames)
        var emitted = 0
        for frame in 0..<(warmUpFrames + frames) {
            let scrollFrame = scroll.next()
            let completed = Duration.milliseconds(60 + Int64(generator.next(upperBound: 741 as UInt64)))
            let start = clock.now
            if frame.isMultiple(of: 3) { planner.observeLoadDuration(completed) }
            let update = planner.update(scrollFrame)
            let elapsed = start.duration(to: clock.now)
            emitted &+= update.prefetch.count &+ update.cancel.count
            if frame >= warmUpFrames { samples.append(elapsed) }
        }
        blackHole(emitted)
        samples.sort()
        let median = samples[samples.count / 2]
        let p99 = samples[min(samples.count - 1, samples.count * 99 / 100)]
        return Result(name: name, items: items, medianNs: median.nanoseconds, p99Ns: p99.nanoseconds)
    }
}

extension PlannerBenchmark {
    /// The lists' scroll: from the middle of the list, down, turning back
    /// at either end.
    static func listScroll(over layout: ListLayout) -> BouncingScroll {
        BouncingScroll(
            start: layout.contentSize.height / 2, contentHeight: layout.contentSize.height,
            viewport: Size(width: 390, height: 844))
    }
}

/// A steady scroll of 10 pt a frame at 60 Hz (600 pt/s) that turns back at
/// either end of the content: however many frames a run asks for, every one
/// shows content, so that two lists' costs compare (a list run past its end
/// has nothing left to plan, and its cost drops).
struct BouncingScroll {
    /// The farthest the viewport's top goes.
    let maxOffset: Double
    let viewport: Size
    private(set) var offset: Double
    private(set) var step = 10.0
    private var frame = 0

    init(start: Double, contentHeight: Double, viewport: Size) {
        maxOffset = max(0, contentHeight - viewport.height)
        self.viewport = viewport
        offset = min(max(0, start), maxOffset)
    }

    /// The next frame: one step on, turned back where the step would leave the content.
    mutating func next() -> ScrollFrame {
        if offset + step > maxOffset || offset + step < 0 { step = -step }
        offset = min(max(0, offset + step), maxOffset)
        frame += 1
        return ScrollFrame(
            visibleRect: Rect(origin: Point(x: 0, y: offset), size: viewport), velocity: step * 60,
            time: .nanoseconds(16_666_667) * frame)
    }
}

extension Duration {
    var nanoseconds: Double {
        Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
    }
}
