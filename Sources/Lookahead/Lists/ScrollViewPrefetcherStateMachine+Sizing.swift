/// How many items a ``ScrollViewPrefetcher`` keeps prefetched around the
/// visible rows: a fixed count, as Nuke's `ScrollViewPrefetcher`, or the
/// adaptive window (the default).
package struct PrefetchWindowSizing: Hashable, Sendable {
    /// The sizing the window's state machine runs.
    package let kind: WindowSizing

    package init(_ kind: WindowSizing) {
        self.kind = kind
    }

    /// Always `count` items ahead of the visible rows, in the direction of
    /// the last scroll; nothing behind. Nuke's `ScrollViewPrefetcher`.
    package static func fixed(count: Int) -> PrefetchWindowSizing {
        PrefetchWindowSizing(.fixed(count: count))
    }

    /// As far ahead as the items that will appear before a load started now
    /// would finish, from the measured scroll speed and load durations, and
    /// a few items on both sides at rest. Its settings are the package's:
    /// the adaptive settings an app tunes (``AdaptivePrefetchPolicy``) are
    /// the coordinator's, whose planner sees the scroll itself.
    package static let adaptive = PrefetchWindowSizing(.adaptive())

    /// The adaptive window with settings of the package's own (the tests').
    package static func adaptive(_ settings: AdaptiveWindowSettings) -> PrefetchWindowSizing {
        PrefetchWindowSizing(.adaptive(settings))
    }

    /// The most items the window holds ahead of the visible rows.
    package var maximumCount: Int { kind.maximumCount }
}

/// The sizings a `ScrollViewPrefetcherStateMachine` runs.
package enum WindowSizing: Hashable, Sendable {
    /// Always `count` items ahead of the visible rows, in the direction of
    /// the last scroll; nothing behind. Nuke's `ScrollViewPrefetcher`.
    case fixed(count: Int)
    /// As far ahead as the items that will appear before a load started now
    /// would finish, from the measured scroll speed and load durations, and a
    /// few items on both sides at rest. See `AdaptiveWindowSettings`.
    case adaptive(AdaptiveWindowSettings = AdaptiveWindowSettings())

    /// The most items the window holds ahead of the visible rows.
    package var maximumCount: Int {
        switch self {
        case .fixed(let count): count
        case .adaptive(let configuration): configuration.maximumCount
        }
    }
}

/// The settings of the adaptive row window (`WindowSizing.adaptive`).
///
/// With nothing but rows appearing and disappearing, the window estimates the
/// scroll speed in items per second (smoothed over `speedTimeConstant`, on
/// the driver's clock) and the load time (a running 90th percentile of
/// observed load durations, `initialLoadDuration` until there is one), and
/// asks for the items predicted to appear within
/// `load time + queue wait + margin`: at `v` items per second, the next
/// `v × (load + queue + margin)` items, never fewer than `restingCount` nor
/// more than `maximumCount`. Behind the visible rows it keeps `restingCount`
/// items, so a list at rest is covered on both sides.
///
/// **Hysteresis.** The speed is smoothed, so a wobble — a row back, a row
/// forward — does not turn the direction. Ahead, an item already asked for
/// stays while the user heads its way, up to `hysteresis × maximumCount`;
/// behind, until it is more than `hysteresis ×` that side's target (and at
/// least `restingCount` more) away: a reversal cancels what it left behind,
/// a wobble neither cancels nor asks again. Rows that were on screen are
/// remembered while they are near, and not asked for again behind the user.
package struct AdaptiveWindowSettings: Hashable, Sendable {
    /// Items kept on both sides at rest, and behind while scrolling.
    public var restingCount: Int
    /// The most items asked for ahead.
    public var maximumCount: Int
    /// Slack on top of the predicted load and queue time.
    public var margin: Duration
    /// How much further than its target an item may drift before it is cancelled.
    public var hysteresis: Double
    /// How quickly the speed estimate follows the scrolling.
    public var speedTimeConstant: Duration
    /// The load time assumed before any load has been observed.
    public var initialLoadDuration: Duration

    /// Creates adaptive settings.
    ///
    /// - Precondition: `0 <= restingCount <= maximumCount`, `margin >= 0`,
    ///   `hysteresis >= 1`, `speedTimeConstant > 0`.
    public init(
        restingCount: Int = 4,
        maximumCount: Int = 60,
        margin: Duration = .milliseconds(100),
        hysteresis: Double = 1.5,
        speedTimeConstant: Duration = .milliseconds(150),
        initialLoadDuration: Duration = .milliseconds(300)
    ) {
        precondition(
            restingCount >= 0 && restingCount <= maximumCount,
            "AdaptiveWindowSettings: need 0 <= restingCount <= maximumCount, got \(restingCount) and \(maximumCount)")
        precondition(margin >= .zero, "AdaptiveWindowSettings: margin must not be negative, got \(margin)")
        precondition(hysteresis >= 1, "AdaptiveWindowSettings: hysteresis must be at least 1, got \(hysteresis)")
        precondition(speedTimeConstant > .zero, "AdaptiveWindowSettings: speedTimeConstant must be positive")
        self.restingCount = restingCount
        self.maximumCount = maximumCount
        self.margin = margin
        self.hysteresis = hysteresis
        self.speedTimeConstant = speedTimeConstant
        self.initialLoadDuration = initialLoadDuration
    }

    /// Below this speed, in items per second, the list counts as at rest.
    static let restingSpeed = 1.0

    /// The core these settings configure, in items: the 90th percentile of
    /// the last 32 load durations, the speed smoothed over
    /// `speedTimeConstant`, steady motion (rows give no fling physics).
    func makePredictor() -> ArrivalPredictor {
        ArrivalPredictor(
            loadTimeQuantile: 0.9, initialLoadDuration: initialLoadDuration, sampleCapacity: 32, margin: margin,
            velocityTimeConstant: speedTimeConstant)
    }
}
