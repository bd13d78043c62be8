// The adaptive windows of a feed of carousels: what a NestedPrefetchPlanner
// (and a NestedPrefetchCoordinator) rests with by default, and what the
// simulator's `adaptive` strategy runs on its carousels scenario.

extension NestedPrefetchPlanner {
    /// The window of rows by default: the adaptive policy resting at 2
    /// screens ahead and 0.5 behind (``rowWindow(for:)`` of
    /// ``AdaptivePrefetchPolicy``'s defaults).
    ///
    /// Smaller than a list's 2.5 and 1.5 screens: a coming row brings several
    /// items, and most rows are passed, not read (docs/decisions.md, "A
    /// feed's rows rest with 2 screens ahead and 0.5 behind").
    package static var defaultPolicy: PrefetchPolicy { .adaptive(rowWindow(for: AdaptivePrefetchPolicy())) }

    /// The window along a swiped carousel by default: the adaptive policy
    /// resting at 2 carousel widths ahead and 1.5 behind
    /// (``carouselWindow(for:)`` of ``AdaptivePrefetchPolicy``'s defaults).
    package static var defaultCarouselPolicy: PrefetchPolicy {
        .adaptive(carouselWindow(for: AdaptivePrefetchPolicy()))
    }

    /// The window of rows that goes with `list`, an adaptive window for a
    /// plain list: its resting window in the default's proportions (ahead,
    /// 2 screens for the list's default 2.5; behind, 0.5 for 1.5), everything
    /// else as `list` has it.
    ///
    /// What `lookahead tune` scores on a feed of carousels for the list
    /// window it recommends.
    package static func rowWindow(for list: AdaptivePrefetchPolicy) -> AdaptivePrefetchPolicy {
        let listDefaults = AdaptivePrefetchPolicy()
        var rows = list
        rows.restingLeadingScreens = list.restingLeadingScreens * 2 / listDefaults.restingLeadingScreens
        rows.restingTrailingScreens = list.restingTrailingScreens * 0.5 / listDefaults.restingTrailingScreens
        return rows
    }

    /// The window along a swiped carousel that goes with `list`, an adaptive
    /// window for a plain list: ahead in the default's proportion (2
    /// carousel widths for the list's default 2.5 screens), without the
    /// list's learned reach (learned from vertical scrolling, not from
    /// swipes), behind and everything else as `list` has it.
    package static func carouselWindow(for list: AdaptivePrefetchPolicy) -> AdaptivePrefetchPolicy {
        var carousel = list
        carousel.restingLeadingScreens = rowWindow(for: list).restingLeadingScreens
        carousel.gestureReach = nil
        return carousel
    }
}

extension PrefetchPolicy {
    /// The window of a feed's rows by default: the adaptive policy resting
    /// at 2 screens ahead and 0.5 behind. Smaller than a list's: a coming
    /// row brings several items, and most rows are passed, not read.
    public static var adaptiveRows: PrefetchPolicy { NestedPrefetchPlanner.defaultPolicy }

    /// The window of a feed's rows that goes with `list`, an adaptive window
    /// for a plain list: its resting window in ``adaptiveRows``' proportions,
    /// everything else as `list` has it (what `lookahead tune` prints for a
    /// feed of carousels).
    public static func adaptiveRows(for list: AdaptivePrefetchPolicy) -> PrefetchPolicy {
        .adaptive(NestedPrefetchPlanner.rowWindow(for: list))
    }

    /// The window along a swiped carousel by default: the adaptive policy
    /// resting at 2 carousel widths ahead and 1.5 behind.
    public static var adaptiveCarousel: PrefetchPolicy { NestedPrefetchPlanner.defaultCarouselPolicy }

    /// The window along a swiped carousel that goes with `list`.
    public static func adaptiveCarousel(for list: AdaptivePrefetchPolicy) -> PrefetchPolicy {
        .adaptive(NestedPrefetchPlanner.carouselWindow(for: list))
    }
}
