public import Lookahead

/// Times one `PrefetchPlanner` update — a frame of steady scrolling — on lists
/// of 10,000 and 1,000,000 items, to show that the cost follows the window,
/// not the list.
///
/// Each list has seeded heights of 60–180 pt on a 390×844 viewport; the
/// planner (`.system` policy) follows a scroll of 10 pt per frame (600 pt/s
/// at 60 Hz) starting in the middle of the list. Every update is timed on its
/// own; the report gives the median and the 99th percentile.
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

    /// The `--json` form: the rows and median(1M) / median(10k).
    public struct Report: Sendable, Codable {
        public var results: [Result] = []
        public var ratio: Double = 0
    }

    public func run(progress: @Sendable (String) -> Void) -> Report {
        var report = Report()
        for items in [10_000, 1_000_000] {
            progress("timing planner updates on \(items) items…")
            report.results.append(measure(items: items))
        }
        if report.results.count == 2, report.results[0].medianNs > 0 {
            report.ratio = report.results[1].medianNs / report.results[0].medianNs
        }
        return report
    }

    func measure(items: Int) -> Result {
        var generator = SplitMix64(seed: seed ^ UInt64(items))
        let heights = (0..<items).map { _ in 60 + Double(generator.next(upperBound: 121 as UInt64)) }
        let layout = ListLayout(width: 390, heights: [heights])
        var planner = PrefetchPlanner(layout: layout, policy: .system)
        let viewport = Size(width: 390, height: 844)
        var offset = layout.contentSize.height / 2
        let step = 10.0
        let frameDuration = Duration.nanoseconds(16_666_667)
        var time = Duration.zero
        let clock = ContinuousClock()
        var samples: [Duration] = []
        samples.reserveCapacity(frames)
        var emitted = 0
        for frame in 0..<(warmUpFrames + frames) {
            offset += step
            time += frameDuration
            let scrollFrame = ScrollFrame(
                visibleRect: Rect(origin: Point(x: 0, y: offset), size: viewport), velocity: step * 60, time: time)
            let start = clock.now
            let update = planner.update(scrollFrame)
            let elapsed = start.duration(to: clock.now)
            emitted &+= update.prefetch.count &+ update.cancel.count
            if frame >= warmUpFrames { samples.append(elapsed) }
        }
        blackHole(emitted)
        samples.sort()
        let median = samples[samples.count / 2]
        let p99 = samples[min(samples.count - 1, samples.count * 99 / 100)]
        return Result(name: "list-\(items)", items: items, medianNs: median.nanoseconds, p99Ns: p99.nanoseconds)
    }
}

extension Duration {
    var nanoseconds: Double {
        Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
    }
}
