package import Lookahead

// The causal reference: what a planner that knows how users scroll (the
// trace generator's gesture distribution) but not where this user will
// scroll can do. At each planned frame it draws futures from what an app
// observes — the offset, the velocity, the heading — on a random stream of
// its own (never the trace's), and asks for each item by the time it is
// needed in enough of them. It sits between `adaptive` (no model of
// gestures) and the oracle (the realised future): a policy gap shows as
// adaptive above it; an information gap as it above the oracle.

/// A prefetch policy that samples futures of the scroll from the gesture
/// model and plans against them: the loads it can complete (its slots, each
/// a typical load's duration) are assigned greedily, each to the item whose
/// expected visible frames after that completion are the most — so a
/// fling's landing zone, seen for long, goes before the rows it flies past.
///
/// A reference, not a policy to ship: it costs `samples × horizon` frames of
/// the gesture model per plan.
package struct CausalReferencePolicy: PrefetchPolicyProtocol, LoadDurationObserving {
    let parameters: TraceGestureParameters
    let maxOffset: Double
    let frameRate: Double
    let samples: Int
    let horizonFrames: Int
    /// Frames per bucket of the visible-frame histograms.
    let bucketFrames: Int
    /// The expected visible frames a prefetch must save to be asked for.
    let minimumSaved: Double
    var random: TraceRandom
    /// How long a load takes, typically: the spacing of completions per slot.
    var durations = LoadDurationEstimator(quantile: 0.5, prior: .milliseconds(200), capacity: 64)
    /// The way the list last moved, as the trace's user heads.
    var heading = 1.0
    package private(set) var deadlines: [(path: ItemPath, time: Duration)] = []
    /// The visible cells worth loading at `.high`: seen for long enough
    /// after a load would land (in the futures of the last plan).
    var worthShowing: Set<ItemPath> = []
    /// Whether the last plan looked at the screen at all (before it, every cell is).
    var hasPlanned = false
    /// The last plan's window: what it asked for stays asked for while any
    /// future still shows it, so that sampling noise does not stop loads.
    var held: Set<ItemPath> = []

    /// - Parameters:
    ///   - style: the gestures the trace's user makes (its distribution, not its draws).
    ///   - maxOffset: the largest content offset.
    ///   - frameRate: the frames per second futures are stepped at.
    ///   - samples: futures drawn per plan.
    ///   - horizon: how far ahead each future runs.
    ///   - seed: the reference's own random stream.
    package init(
        style: ScrollTraceGenerator.Style, maxOffset: Double, frameRate: Double, samples: Int = 32,
        horizon: Duration = .seconds(3), seed: UInt64
    ) {
        precondition(samples >= 1, "CausalReferencePolicy: samples must be at least 1, got \(samples)")
        parameters = style.parameters
        self.maxOffset = maxOffset
        self.frameRate = frameRate
        self.samples = samples
        horizonFrames = max(1, Int((horizon / .seconds(1) * frameRate).rounded()))
        bucketFrames = max(1, Int((frameRate / 20).rounded()))
        minimumSaved = 0.5
        random = TraceRandom(seed: seed ^ 0xCA05_A1FE_7E2E_5EED)
    }

    /// The expected frames a visible cell must stay on screen after its load
    /// could land to be asked for at `.high`.
    static let worthShowingFrames = 6.0

    package func displayPriority(
        for path: ItemPath, context: PrefetchContext, layout: any CollectionLayout
    ) -> FetchPriority {
        !hasPlanned || worthShowing.contains(path) ? .high : .low
    }

    package mutating func observeLoadDuration(_ duration: Duration) {
        durations.record(duration)
    }

    package mutating func window(for context: PrefetchContext, layout: any CollectionLayout) -> [ItemPath] {
        let frame = context.frame
        let rect = frame.visibleRect
        if frame.velocity != 0 { heading = frame.velocity > 0 ? 1 : -1 }
        // Per item, its visible frames summed over the futures, by bucket.
        let buckets = horizonFrames / bucketFrames + 1
        var visibleFrames: [ItemPath: [Double]] = [:]
        let onScreen = Set(context.visibleItems)
        for _ in 0..<samples {
            var scroller = TraceScroller(
                parameters: parameters, maxOffset: maxOffset, frameRate: frameRate, offset: rect.minY,
                velocity: frame.velocity, target: frame.targetOffset?.y, heading: heading, using: &random)
            var shownPaths: [ItemPath] = []
            var lastOffset = Double.nan
            for step in 1...horizonFrames {
                scroller.advance(using: &random)
                if scroller.offset != lastOffset {
                    lastOffset = scroller.offset
                    let shown = Rect(x: rect.minX, y: scroller.offset, width: rect.width, height: rect.height)
                    shownPaths = layout.itemPaths(in: shown)
                }
                let bucket = step / bucketFrames
                for path in shownPaths {
                    visibleFrames[path, default: [Double](repeating: 0, count: buckets)][bucket] += 1
                }
            }
        }
        // What loading each item by the end of bucket b saves: its frames from b on, per future.
        var saved: [(path: ItemPath, after: [Double])] = visibleFrames.map { path, frames in
            var after = [Double](repeating: 0, count: buckets + 1)
            for bucket in stride(from: buckets - 1, through: 0, by: -1) {
                after[bucket] = after[bucket + 1] + frames[bucket] / Double(samples)
            }
            return (path, after)
        }
        // In the list's order, not the dictionary's: ties go the same way in every process.
        saved.sort { ($0.path.section, $0.path.item) < ($1.path.section, $1.path.item) }
        let slots = max(1, context.loadQueue.maxConcurrentLoads)
        let duration = durations.estimate
        let step = Duration.seconds(1) / frameRate
        // A visible cell a fling carries away before its load could land waits at `.low`.
        let firstLanding = min(buckets, Int((duration / step).rounded(.up)) / bucketFrames)
        worthShowing = Set(
            saved.lazy.filter { onScreen.contains($0.path) && $0.after[firstLanding] >= Self.worthShowingFrames }
                .map(\.path))
        hasPlanned = true
        saved.removeAll { onScreen.contains($0.path) }
        // Completions: a slot's worth of loads every typical duration, after those queued.
        var order: [ItemPath] = []
        var dates: [(path: ItemPath, time: Duration)] = []
        var position = 0
        while !saved.isEmpty {
            let round = (position + context.loadQueue.pending) / slots + 1
            let completion = duration * round
            let bucket = min(buckets, Int((completion / step).rounded(.up)) / bucketFrames)
            guard let best = saved.indices.max(by: { saved[$0].after[bucket] < saved[$1].after[bucket] }),
                saved[best].after[bucket] >= minimumSaved
            else { break }
            let path = saved.remove(at: best).path
            order.append(path)
            dates.append((path, frame.time + completion))
            position += 1
        }
        // Kept, last: what was asked for and some future still shows, so
        // that sampling noise from plan to plan does not stop loads under way.
        let horizonEnd = frame.time + step * horizonFrames
        for entry in saved where held.contains(entry.path) && entry.after[0] > 0 {
            order.append(entry.path)
            dates.append((entry.path, horizonEnd))
        }
        held = Set(order)
        deadlines = dates
        return order
    }
}
