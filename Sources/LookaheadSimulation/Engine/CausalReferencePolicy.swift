package import Lookahead

// The causal reference: what a planner that knows how users scroll (the
// trace generator's gesture distribution) but not where this user will
// scroll can do. At each planned frame it draws futures from what an app
// observes — the offset, the velocity, the heading — on a random stream of
// its own (never the trace's), and asks for each item by the time it is
// needed in enough of them. It sits between `adaptive` (no model of
// gestures) and the oracle (the realised future): a policy gap shows as
// adaptive above it; an information gap as it above the oracle.

/// A prefetch policy that holds `adaptive`'s window and, while the list
/// rests, adds what sampled futures of the scroll say the next gesture will
/// want: the loads it can complete (its slots, each a typical load's
/// duration) are assigned greedily, each to the item whose expected visible
/// frames after that completion are the most — a fling's landing zone,
/// seen for long, before the rows it flies past — and queued after
/// `adaptive`'s own, so that what the futures add never delays them.
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
    /// The last plan's window: what it asked for stays asked for while any
    /// future still shows it, so that sampling noise does not stop loads.
    var held: Set<ItemPath> = []
    /// The shipped policy, whose window the futures extend at rest.
    var adaptive = AdaptivePrefetchPolicy()
    /// Below this speed (pt/s) the list rests, as `adaptive` counts it.
    var restingSpeed: Double { adaptive.restingSpeed }

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

    package func displayPriority(
        for path: ItemPath, context: PrefetchContext, layout: any CollectionLayout
    ) -> FetchPriority {
        adaptive.displayPriority(for: path, context: context, layout: layout)
    }

    package mutating func observeLoadDuration(_ duration: Duration) {
        durations.record(duration)
        adaptive.observeLoadDuration(duration)
    }

    package mutating func window(for context: PrefetchContext, layout: any CollectionLayout) -> [ItemPath] {
        let frame = context.frame
        if frame.velocity != 0 { heading = frame.velocity > 0 ? 1 : -1 }
        var window = adaptive.window(for: context, layout: layout)
        var dates = adaptive.deadlines
        defer { deadlines = dates }
        // In motion `adaptive` plans alone: its window is what the gesture
        // under way needs. At rest the link has time the next gesture may use.
        guard abs(frame.velocity) < restingSpeed else {
            held = []
            return window
        }
        // Queued after adaptive's own: nothing the futures add is dated before its last.
        let after = dates.map(\.time).max() ?? frame.time
        let planned = Set(window)
        for (path, time) in plannedFromFutures(context: context, layout: layout) where !planned.contains(path) {
            window.append(path)
            dates.append((path, max(time, after)))
        }
        return window
    }

    /// The items the futures drawn from `context` want loaded, most saved
    /// visible frames first, each dated by when its load would complete.
    mutating func plannedFromFutures(
        context: PrefetchContext, layout: any CollectionLayout
    ) -> [(path: ItemPath, time: Duration)] {
        let frame = context.frame
        let rect = frame.visibleRect
        // Per item, its visible frames summed over the futures, by bucket.
        let buckets = horizonFrames / bucketFrames + 1
        var visibleFrames: [ItemPath: [Double]] = [:]
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
        let onScreen = Set(context.visibleItems)
        var saved: [(path: ItemPath, after: [Double])] = visibleFrames.compactMap { path, frames in
            guard !onScreen.contains(path) else { return nil }
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
        // Completions: a slot's worth of loads every typical duration, after those queued.
        var planned: [(path: ItemPath, time: Duration)] = []
        while !saved.isEmpty {
            let round = (planned.count + context.loadQueue.pending) / slots + 1
            let completion = duration * round
            let bucket = min(buckets, Int((completion / step).rounded(.up)) / bucketFrames)
            guard let best = saved.indices.max(by: { saved[$0].after[bucket] < saved[$1].after[bucket] }),
                saved[best].after[bucket] >= minimumSaved
            else { break }
            planned.append((saved.remove(at: best).path, frame.time + completion))
        }
        // Kept, last: what was asked for and some future still shows, so
        // that sampling noise from plan to plan does not stop loads under way.
        let horizonEnd = frame.time + step * horizonFrames
        for entry in saved where held.contains(entry.path) && entry.after[0] > 0 {
            planned.append((entry.path, horizonEnd))
        }
        held = Set(planned.map(\.path))
        return planned
    }
}
