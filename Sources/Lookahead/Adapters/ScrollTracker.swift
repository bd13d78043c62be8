// What a scroll view reports, turned into the frames a planner plans: the
// velocity measured between reports, and a fling's announced target kept
// until the fling ends. Pure, so that the coordinator stays thin.

/// Turns scroll reports into `ScrollFrame`s.
///
/// UIKit reports a content offset on every `scrollViewDidScroll`, but a
/// velocity only once, at the end of a drag (with the target offset the
/// deceleration will reach). The tracker measures the velocity between
/// reports, and keeps an announced target — a drag's end, an animated
/// scroll's — on every frame of the motion it announced, until the motion
/// ends or a new drag begins.
package struct ScrollTracker: Sendable {
    /// The velocity between reports: the library's one estimator, as a
    /// finite difference (a scroll view's velocity is per frame, not smoothed).
    private var velocity = VelocityEstimator(timeConstant: .zero)
    /// The target of the fling under way, if one was announced.
    private(set) var target: Point?
    /// Whether ``target`` was announced without a report of its own
    /// (``announceAtNextReport(target:)``) and no report has carried it yet.
    private(set) var hasPendingTarget = false

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
        hasPendingTarget = false
        return ScrollFrame(
            visibleRect: Rect(origin: contentOffset, size: viewportSize), velocity: velocity.velocity, time: time,
            targetOffset: target)
    }

    /// The frame on which a motion's resting place is announced, and the
    /// target kept for the frames that follow: a drag's end, which UIKit
    /// reports with the velocity and the fling's `target`, or an animated
    /// scroll the app starts (no velocity: it is measured from the reports).
    /// `nil` as for ``frame(contentOffset:viewportSize:time:velocity:)``.
    mutating func frameAnnouncing(
        target: Point, contentOffset: Point, viewportSize: Size, time: Duration, velocity reported: Double? = nil
    ) -> ScrollFrame? {
        self.target = target.x.isFinite && target.y.isFinite ? target : nil
        return frame(contentOffset: contentOffset, viewportSize: viewportSize, time: time, velocity: reported)
    }

    /// The frame on which a deceleration that the view reports only by its
    /// velocity begins (SwiftUI's `onScrollPhaseChange`): announced as by
    /// ``frameAnnouncing(target:contentOffset:viewportSize:time:velocity:)``,
    /// its target where UIScrollView's deceleration would take it
    /// (`ScrollPhysics.projectedDistance(velocity:)`), within `0...maxOffset`.
    ///
    /// SwiftUI documents neither the unit nor the sign of that velocity, so
    /// it is checked against the motion measured between reports: unless it
    /// points the same way at between 1/``plausibleFactor`` and
    /// ``plausibleFactor`` times the measured speed, the measured velocity
    /// is used instead. Points per millisecond, or a sign the other way
    /// round, would otherwise land the fling a thousandth of its way, or
    /// behind. Below ``checkedSpeed`` measured, there is nothing to check
    /// against and the report stands.
    mutating func frameDecelerating(
        velocity reported: Double, contentOffset: Point, viewportSize: Size, maxOffset: Double, time: Duration
    ) -> ScrollFrame? {
        guard reported.isFinite, contentOffset.y.isFinite, maxOffset.isFinite else { return nil }
        let measured = velocity.velocity
        let ratio = reported / measured
        let isPlausible =
            abs(measured) < Self.checkedSpeed || (1 / Self.plausibleFactor...Self.plausibleFactor).contains(ratio)
        let speed = isPlausible ? reported : measured
        let targetY = min(max(0, contentOffset.y + ScrollPhysics.projectedDistance(velocity: speed)), max(0, maxOffset))
        return frameAnnouncing(
            target: Point(x: contentOffset.x, y: targetY), contentOffset: contentOffset, viewportSize: viewportSize,
            time: time, velocity: speed)
    }

    /// How far a reported velocity may be from the measured one, as a
    /// factor either way, and still be taken as the view's: a release
    /// velocity is smoothed over the last touches, and differs from the last
    /// frame's by far less.
    static let plausibleFactor = 8.0
    /// The measured speed (points per second) below which a reported
    /// velocity is not checked: a list all but at rest tells nothing of the
    /// report's unit.
    static let checkedSpeed = 100.0

    /// Announces an animated scroll's `target` from the next report on,
    /// for a caller that cannot time a report of its own (the view reports
    /// on its own clock). A target with non-finite numbers is ignored.
    mutating func announceAtNextReport(target: Point) {
        guard target.x.isFinite, target.y.isFinite else { return }
        self.target = target
        hasPendingTarget = true
    }

    /// The motion is over (a fling came to rest or a new drag caught it, an
    /// animated scroll arrived): frames carry no target any more.
    mutating func endFling() {
        target = nil
        hasPendingTarget = false
    }

    /// Forgets the motion: the next report starts at rest.
    mutating func reset() {
        velocity.reset()
        target = nil
        hasPendingTarget = false
    }
}
