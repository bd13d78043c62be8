// What a scroll view reports, turned into the frames a planner plans: the
// velocity measured between reports, and a fling's announced target kept
// until the fling ends. Pure, so that the coordinator stays thin.

/// Turns scroll reports into ``ScrollFrame``s.
///
/// UIKit reports a content offset on every `scrollViewDidScroll`, but a
/// velocity only once, at the end of a drag (with the target offset the
/// deceleration will reach). The tracker measures the velocity between
/// reports, and keeps the announced target on every frame of the
/// deceleration it announced: until the deceleration ends, a new drag
/// begins, or the content jumps.
struct ScrollTracker: Sendable {
    /// The velocity between reports: the library's one estimator, as a
    /// finite difference (a scroll view's velocity is per frame, not smoothed).
    private var velocity = VelocityEstimator(timeConstant: .zero)
    /// The target of the fling under way, if one was announced.
    private(set) var target: Point?

    /// The frame for a report, or `nil` for a report with non-finite numbers
    /// or an empty viewport, which no planner can use.
    ///
    /// - Parameter velocity: the velocity, when the view reports it
    ///   (points per second); measured from the last report otherwise.
    mutating func frame(
        contentOffset: Point, viewportSize: Size, time: Duration, velocity reported: Double? = nil
    ) -> ScrollFrame? {
        guard contentOffset.x.isFinite, contentOffset.y.isFinite, viewportSize.width.isFinite,
            viewportSize.height.isFinite, viewportSize.width > 0, viewportSize.height > 0,
            reported?.isFinite ?? true
        else { return nil }
        if let reported {
            velocity.record(velocity: reported, position: contentOffset.y, at: time)
        } else {
            // A clock that went back starts the measurement afresh.
            velocity.record(position: contentOffset.y, at: time)
        }
        return ScrollFrame(
            visibleRect: Rect(origin: contentOffset, size: viewportSize), velocity: velocity.velocity, time: time,
            targetOffset: target)
    }

    /// A drag ended in a fling that will come to rest at `target`.
    mutating func endDragging(target: Point) {
        self.target = target.x.isFinite && target.y.isFinite ? target : nil
    }

    /// The frame of a drag's end, which UIKit reports with the velocity and
    /// the fling's `target`: the target is kept for the frames that follow.
    /// `nil` as for ``frame(contentOffset:viewportSize:time:velocity:)``.
    mutating func frameEndingDrag(
        velocity: Double, target: Point, contentOffset: Point, viewportSize: Size, time: Duration
    ) -> ScrollFrame? {
        endDragging(target: target)
        return frame(contentOffset: contentOffset, viewportSize: viewportSize, time: time, velocity: velocity)
    }

    /// The fling is over (it came to rest, a new drag caught it, or the
    /// content jumped): frames carry no target any more.
    mutating func endFling() {
        target = nil
    }

    /// Forgets the motion: the next report starts at rest.
    mutating func reset() {
        velocity.reset()
        target = nil
    }
}
