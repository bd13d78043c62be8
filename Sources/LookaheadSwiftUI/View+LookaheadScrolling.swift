// iOS 18's scroll geometry and phases, forwarded to a PrefetchCoordinator:
// the adaptive planner on a SwiftUI ScrollView whose item frames are known
// (a FixedLayoutSource). Below iOS 18, use the row modifier. Compiled only
// where SwiftUI exists.

#if canImport(SwiftUI)
public import Lookahead
public import SwiftUI

extension View {
    /// Reports this scroll view's offset on every change
    /// (`onScrollGeometryChange`) and the start of each deceleration with
    /// its velocity (`onScrollPhaseChange`) to `coordinator`, which
    /// prefetches and cancels as it does for a `UICollectionView`. Before
    /// an animated `scrollTo`, announce where it rests with
    /// `PrefetchCoordinator.scrollViewWillAnimateScroll(to:)`: the view's
    /// next report plans for it.
    ///
    /// The coordinator's layout source must know the item frames: a
    /// `FixedLayoutSource` over the `UniformGridLayout` of a `LazyVGrid` with
    /// fixed cells, or the `ListLayout` of fixed rows.
    ///
    /// - Parameters:
    ///   - coordinator: the coordinator to report to.
    ///   - clock: the clock frames are timed on.
    ///   - snaps: whether the scroll view snaps (`scrollTargetBehavior`
    ///     `.paging` or `.viewAligned`): it lands where SwiftUI's behaviour
    ///     says, which no projection knows, so no landing is projected.
    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    public func lookaheadScrolling<Key, Value, C: Clock<Duration>>(
        _ coordinator: PrefetchCoordinator<Key, Value>, clock: C = ContinuousClock(), snaps: Bool = false
    ) -> some View {
        modifier(LookaheadScrollingModifier(coordinator: coordinator, clock: clock, snaps: snaps))
    }
}

/// The offset and size of a scroll view's visible area.
private struct VisibleArea: Equatable {
    var offset: Point
    var size: Size
}

@available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
private struct LookaheadScrollingModifier<Key: Hashable & Sendable, Value: Sendable, C: Clock<Duration>>:
    ViewModifier
{
    let coordinator: PrefetchCoordinator<Key, Value>
    let clock: C
    /// Whether the scroll view snaps (a `scrollTargetBehavior`): it lands
    /// where SwiftUI's behaviour says, which no projection knows, so no
    /// landing is projected and the frames plan as they come.
    let snaps: Bool
    /// When the first report was made: times are measured from it.
    @State private var start: C.Instant?

    func body(content: Content) -> some View {
        content
            .trimmingCachesInTheBackground()
            .onAppear { coordinator.rows?.reportsScrollGeometry = true }
            .onScrollGeometryChange(for: VisibleArea.self) { geometry in
                VisibleArea(offset: Point(geometry.contentOffset), size: Size(geometry.containerSize))
            } action: { _, area in
                coordinator.scrollViewDidScroll(contentOffset: area.offset, viewportSize: area.size, at: now())
            }
            .onScrollPhaseChange { _, phase, context in
                // A programmatic scroll keeps the target its app announced
                // (scrollViewWillAnimateScroll(to:)) until it ends.
                if phase == .animating { return }
                guard phase == .decelerating, !snaps else {
                    coordinator.scrollViewDidEndFling()
                    return
                }
                // SwiftUI reports no target offset: the coordinator projects it.
                // Nor does it document the velocity's unit or sign: the
                // coordinator checks it against the motion it measured.
                guard let velocity = context.velocity else { return }
                let speed = coordinator.scrollAxis == .horizontal ? velocity.dx : velocity.dy
                coordinator.scrollViewWillDecelerate(
                    velocity: Double(speed), contentOffset: Point(context.geometry.contentOffset),
                    viewportSize: Size(context.geometry.containerSize), at: now())
            }
    }

    private func now() -> Duration {
        let origin = start ?? clock.now
        if start == nil { start = origin }
        return origin.duration(to: clock.now)
    }
}
#endif
