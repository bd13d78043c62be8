import Lookahead
import Testing

/// The nested planner's row-by-row bookkeeping and its skipping of planners
/// at rest, against ``ReferenceNestedPlanner``: the same updates, frame by
/// frame, over seeded walks that fling, read, rest and swipe carousels.
@Suite("Nested prefetch planner: against the plain reference", .timeLimit(.minutes(1)))
struct NestedPlannerReferenceTests {
    /// 80 rows: carousels of 0–39 items of seeded widths, some plain cells.
    static func layout(seed: UInt64) -> CarouselFeedLayout {
        var random = SeededRandom(seed: seed)
        let rows = (0..<80).map { _ -> CarouselFeedLayout.Row in
            if random.next(upperBound: 5 as UInt64) == 0 { return .cell(height: 80) }
            return .carousel(
                height: 120 + Double(random.next(upperBound: 120 as UInt64)),
                itemWidth: 60 + Double(random.next(upperBound: 100 as UInt64)),
                itemCount: Int(random.next(upperBound: 40 as UInt64)), spacing: 8)
        }
        return CarouselFeedLayout(width: 390, rows: rows)
    }

    @Test(
        "the same updates as the reference on a seeded walk",
        arguments: [(1, "adaptive"), (2, "system"), (3, "screens")])
    func sameUpdates(seed: UInt64, policyName: String) {
        let policy: PrefetchPolicy =
            switch policyName {
            case "system": .system
            case "screens": .screens()
            default: .adaptive
            }
        let layout = Self.layout(seed: seed)
        var planner = NestedPrefetchPlanner(layout: layout, policy: policy, carouselPolicy: policy)
        var reference = ReferenceNestedPlanner(layout: layout, policy: policy, carouselPolicy: policy)
        var random = SeededRandom(seed: seed)
        let maxOffset = layout.outer.contentSize.height - 844
        var offset = 0.0
        var velocity = 0.0
        var time = Duration.zero
        for step in 0..<1_500 {
            time += .nanoseconds(16_666_667)
            // Runs of one motion: rest (often, so that planners rest), read, fling either way.
            if random.next(upperBound: 20 as UInt64) == 0 {
                velocity = [0, 0, 120, -90, 900, -700, 3_500, -4_000][Int(random.next(upperBound: 8 as UInt64))]
            }
            offset = min(max(0, offset + velocity / 60), maxOffset)
            var scrolls: [NestedPrefetchPlanner.CarouselScroll] = []
            if random.next(upperBound: 3 as UInt64) == 0 {
                let row = Int(random.next(upperBound: 80 as UInt64))
                let swipe = [0.0, 0, 600, -450][Int(random.next(upperBound: 4 as UInt64))]
                scrolls.append(
                    .init(row: row, offset: Double(random.next(upperBound: 3_000 as UInt64)), velocity: swipe))
            }
            if step.isMultiple(of: 7) {
                let load = Duration.milliseconds(50 + Int64(random.next(upperBound: 900 as UInt64)))
                planner.observeLoadDuration(load)
                reference.observeLoadDuration(load)
            }
            let queue = LoadQueueState(pending: Int(random.next(upperBound: 30 as UInt64)), maxConcurrentLoads: 6)
            let frame = ScrollFrame(
                visibleRect: Rect(origin: Point(x: 0, y: offset), size: Size(width: 390, height: 844)),
                velocity: offset == 0 || offset == maxOffset ? 0 : velocity, time: time)
            let update = planner.update(frame, carousels: scrolls, loadQueue: queue)
            let expected = reference.update(frame, carousels: scrolls, loadQueue: queue)
            #expect(update == expected, "seed \(seed) \(policyName) step \(step)")
            #expect(planner.prefetched == reference.prefetched, "seed \(seed) \(policyName) step \(step)")
            #expect(planner.visibleItems == reference.visibleItems, "seed \(seed) \(policyName) step \(step)")
            for path in planner.visibleItems {
                #expect(
                    planner.displayPriority(for: path) == reference.displayPriority(for: path),
                    "seed \(seed) \(policyName) step \(step): \(path)")
            }
            if update != expected { return }
        }
    }
}
