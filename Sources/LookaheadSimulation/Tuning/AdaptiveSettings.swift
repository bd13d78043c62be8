public import Lookahead

/// The settings of the adaptive policy that `lookahead tune` searches, and
/// the Swift code that applies them in an app.
///
/// Each is a knob of ``AdaptivePrefetchPolicy`` (or the fetcher's concurrency
/// limit) whose best value depends on the app: how people scroll it, how long
/// its loads take, how much waste its users' data plans tolerate.
public struct AdaptiveSettings: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Added to the load-time estimate (``AdaptivePrefetchPolicy/margin``), in milliseconds.
    public var marginMilliseconds: Int
    /// Screens held ahead while resting (``AdaptivePrefetchPolicy/restingLeadingScreens``).
    public var restingLeadingScreens: Double
    /// Screens held behind while resting (``AdaptivePrefetchPolicy/restingTrailingScreens``).
    public var restingTrailingScreens: Double
    /// The least held ahead when the window is sized from the reader's pace
    /// (``AdaptivePrefetchPolicy/restingFloorScreens``); `nil`: a fixed window.
    public var restingFloorScreens: Double?
    /// How far the policy looks ahead at most, in screens (``AdaptivePrefetchPolicy/maxReachScreens``).
    public var maxReachScreens: Double
    /// Whether a fling's passing items are skipped (``AdaptivePrefetchPolicy/yieldsToLandingZone``).
    public var yieldsToLandingZone: Bool
    /// The fetcher's concurrency limit (`AsyncFetcher(maxConcurrentLoads:)`).
    public var maxConcurrentLoads: Int
    /// Whether a visible cell's load that has run past the p90 of observed
    /// load durations gets a second attempt (`AsyncFetcher(hedging: .afterP90)`).
    public var hedgesSlowLoads: Bool
    /// With ``hedgesSlowLoads``: how long, in milliseconds, a visible cell's
    /// load may run before it is hedged while fewer than
    /// ``FetchHedging/minimumSamples`` loads have landed (the first screen,
    /// when there is no p90 yet); `nil`: no hedge before then
    /// (`AsyncFetcher(hedging: .afterP90WithPrior(.milliseconds(n)))`).
    public var hedgePriorMilliseconds: Int?
    /// Whether the planner is told where a motion lands, on generated
    /// traces (``ScrollFrame/targetOffset``, as an app passes UIKit's
    /// `targetContentOffset` and the targets of its own animated scrolls).
    public var announcesLandings: Bool
    /// Whether queued prefetches start earliest-due first, re-dated every
    /// frame from the policy's predictions (``PrefetchPlanner/deadlines``,
    /// ``FetchTask/setDeadline(_:)``) rather than in the order asked for.
    public var datesPrefetches: Bool
    /// With ``hedgesSlowLoads`` and ``datesPrefetches``: whether a prefetch
    /// whose item is due within ``FetchHedging/dueWithin`` is hedged at once
    /// while it loads, as `AsyncFetcher(hedging:)` does when
    /// `PrefetchCoordinator` re-dates it (none on a link of limited
    /// bandwidth: ``hedgesDueSoonAtOnce(over:)``).
    public var hedgesDuePrefetches: Bool
    /// While resting, how many times its distance an item behind counts for
    /// when the window is ordered (``AdaptivePrefetchPolicy/restingTrailingWeight``,
    /// 3 by default, as the policy's): above 1, what lies ahead in the last
    /// direction of travel loads first. `lookahead tune` does not search it.
    public var restingTrailingWeight: Double
    /// Where the next gesture from a rest goes (``AdaptivePrefetchPolicy/gestureReach``); `nil`: the fixed resting window.
    public var gestureReach: GestureReach?
    /// The least share of rests reaching an item for the resting window to hold it.
    public var reachProbability: Double = AdaptivePrefetchPolicy.defaultReachProbability

    /// Whether the shipped `adaptive` strategy hedges: what `lookahead
    /// simulate` runs (see ``shipped(maxConcurrentLoads:)``). It pays
    /// everywhere but on a bandwidth-bound grid (docs/decisions.md, "Hedge
    /// slow visible loads").
    public static let hedgesSlowLoadsByDefault = true

    /// The first screen's hedging prior the shipped `adaptive` strategy
    /// uses, ``FetchHedging/recommended``'s: before three loads land there
    /// is no p90, and the first screen waits for its slowest responses
    /// (docs/decisions.md, "A first-screen prior of 34 ms").
    public static let hedgePriorByDefault: Int? = {
        guard case .afterP90WithPrior(let prior) = FetchHedging.recommended else { return nil }
        return Int(prior / .milliseconds(1))
    }()

    /// Whether the shipped `adaptive` strategy is told where a motion lands
    /// on generated traces (``ScrollFrame/targetOffset``: a fling's at its
    /// release, an animated jump's throughout), as an app passes UIKit's
    /// `targetContentOffset` and its own scroll targets.
    public static let announcesLandingsByDefault = true

    /// Whether the shipped `adaptive` strategy dates its prefetches, so that
    /// the queue starts them earliest-due first: what a fling needs first
    /// is then what starts first (docs/decisions.md, "Date prefetches").
    public static let datesPrefetchesByDefault = true

    /// Whether the shipped `adaptive` strategy hedges prefetches whose item
    /// is due within ``FetchHedging/dueWithin`` (what the runtime fetcher
    /// does whenever it hedges and prefetches are dated): a second draw now
    /// beats waiting for the tail (docs/decisions.md, "Hedge a prefetch due
    /// within 300 ms at once").
    public static let hedgesDuePrefetchesByDefault = true

    /// Creates settings.
    ///
    /// - Precondition: the margin, the resting window and the floor not
    ///   negative, the reach above 0, the concurrency at least 1.
    public init(
        marginMilliseconds: Int, restingLeadingScreens: Double, restingTrailingScreens: Double,
        restingFloorScreens: Double? = nil, maxReachScreens: Double, yieldsToLandingZone: Bool,
        maxConcurrentLoads: Int, hedgesSlowLoads: Bool = false, hedgePriorMilliseconds: Int? = nil,
        announcesLandings: Bool = false, datesPrefetches: Bool = false, hedgesDuePrefetches: Bool = false,
        restingTrailingWeight: Double = AdaptivePrefetchPolicy.defaultRestingTrailingWeight
    ) {
        precondition(marginMilliseconds >= 0, "AdaptiveSettings: margin \(marginMilliseconds) ms")
        self.marginMilliseconds = marginMilliseconds
        precondition(
            restingLeadingScreens >= 0 && restingTrailingScreens >= 0,
            "AdaptiveSettings: resting window \(restingLeadingScreens) / \(restingTrailingScreens)")
        self.restingLeadingScreens = restingLeadingScreens
        self.restingTrailingScreens = restingTrailingScreens
        precondition(restingFloorScreens.map { $0 >= 0 } ?? true, "AdaptiveSettings: a negative floor")
        self.restingFloorScreens = restingFloorScreens
        precondition(maxReachScreens > 0, "AdaptiveSettings: reach \(maxReachScreens)")
        self.maxReachScreens = maxReachScreens
        self.yieldsToLandingZone = yieldsToLandingZone
        precondition(maxConcurrentLoads >= 1, "AdaptiveSettings: concurrency \(maxConcurrentLoads)")
        self.maxConcurrentLoads = maxConcurrentLoads
        self.hedgesSlowLoads = hedgesSlowLoads
        precondition(
            hedgePriorMilliseconds.map { $0 >= 0 } ?? true,
            "AdaptiveSettings: hedge prior \(hedgePriorMilliseconds ?? 0) ms")
        self.hedgePriorMilliseconds = hedgePriorMilliseconds
        self.announcesLandings = announcesLandings
        self.datesPrefetches = datesPrefetches
        self.hedgesDuePrefetches = hedgesDuePrefetches
        precondition(
            restingTrailingWeight.isFinite && restingTrailingWeight >= 1,
            "AdaptiveSettings: trailing weight \(restingTrailingWeight)")
        self.restingTrailingWeight = restingTrailingWeight
    }

    /// What `.adaptive` ships with, at a concurrency limit of `maxConcurrentLoads`.
    public static func shipped(maxConcurrentLoads: Int = 6) -> AdaptiveSettings {
        let policy = AdaptivePrefetchPolicy()
        var settings = AdaptiveSettings(
            marginMilliseconds: Int(policy.margin / .milliseconds(1)),
            restingLeadingScreens: policy.restingLeadingScreens,
            restingTrailingScreens: policy.restingTrailingScreens, restingFloorScreens: policy.restingFloorScreens,
            maxReachScreens: policy.maxReachScreens,
            yieldsToLandingZone: policy.yieldsToLandingZone, maxConcurrentLoads: maxConcurrentLoads,
            hedgesSlowLoads: hedgesSlowLoadsByDefault, hedgePriorMilliseconds: hedgePriorByDefault,
            announcesLandings: announcesLandingsByDefault, datesPrefetches: datesPrefetchesByDefault,
            hedgesDuePrefetches: hedgesDuePrefetchesByDefault)
        settings.gestureReach = policy.gestureReach
        settings.reachProbability = policy.reachProbability
        return settings
    }

    /// The hedging threshold before ``FetchHedging/minimumSamples`` loads
    /// have landed, or `nil` when nothing is hedged then.
    public var hedgePrior: Duration? {
        guard hedgesSlowLoads else { return nil }
        return hedgePriorMilliseconds.map { .milliseconds($0) }
    }

    /// The policy with these settings (the concurrency limit is the fetcher's, not the policy's).
    public func makePolicy() -> PrefetchPolicy {
        .custom(makeAdaptivePolicy())
    }

    /// The adaptive window with these settings, on a list.
    public func makeAdaptivePolicy() -> AdaptivePrefetchPolicy {
        AdaptivePrefetchPolicy(
            margin: .milliseconds(marginMilliseconds), restingLeadingScreens: restingLeadingScreens,
            restingTrailingScreens: restingTrailingScreens, yieldsToLandingZone: yieldsToLandingZone,
            maxReachScreens: maxReachScreens, restingFloorScreens: restingFloorScreens,
            restingTrailingWeight: restingTrailingWeight, gestureReach: gestureReach,
            reachProbability: reachProbability)
    }

    /// Swift code that applies these settings in an app, to paste: the
    /// policy (for a ``PrefetchPlanner`` or a view's `prefetchPolicy`) and
    /// the fetcher's limit and hedging, for a link without a bandwidth cap.
    public var swiftCode: String { swiftCode(over: .unlimited) }

    /// Swift code that applies these settings in an app whose loads share a
    /// link of `bandwidth`: on a capped one, the fetcher hedges no prefetch
    /// at once (``hedgesDueSoonAtOnce(over:)``).
    ///
    /// For a feed of carousels (`nested`), the window is the list window
    /// that the feed's coordinator sizes its windows of rows and along a
    /// swiped carousel from (`PrefetchPolicy.adaptiveRows(for:)`,
    /// `PrefetchPolicy.adaptiveCarousel(for:)`): what the simulator
    /// scored there.
    public func swiftCode(over bandwidth: NetworkModel.Bandwidth, nested: Bool = false) -> String {
        let dueSoon =
            hedgesSlowLoads && !hedgesDueSoonAtOnce(over: bandwidth) ? ", hedgesDueSoonAtOnce: false" : ""
        let fetcher = """
            let fetcher = AsyncFetcher<Key, Value>(
                maxConcurrentLoads: \(maxConcurrentLoads), hedging: \(hedgingLiteral)\(dueSoon), load: load)
            """
        guard nested else {
            return """
                // Tuned by `lookahead tune` on your traces.
                let prefetchPolicy: PrefetchPolicy = .adaptive(
                    \(policyLiteral(indent: "    ")))
                \(fetcher)
                """
        }
        return """
            // Tuned by `lookahead tune` on your feed of carousels' traces.
            let listWindow = \(policyLiteral(indent: ""))
            \(fetcher)
            let coordinator = NestedPrefetchCoordinator(
                fetcher: fetcher, layout: feedLayout,
                policy: .adaptiveRows(for: listWindow),
                carouselPolicy: .adaptiveCarousel(for: listWindow),
                key: key)
            """
    }

    /// The adaptive policy with these settings as Swift source, its lines
    /// after the first indented by `indent`. The floor is always named: `nil`
    /// for the fixed window, which is not the policy's default.
    func policyLiteral(indent: String) -> String {
        """
        AdaptivePrefetchPolicy(
        \(indent)    margin: .milliseconds(\(marginMilliseconds)),
        \(indent)    restingLeadingScreens: \(Self.literal(restingLeadingScreens)),
        \(indent)    restingTrailingScreens: \(Self.literal(restingTrailingScreens)),
        \(indent)    yieldsToLandingZone: \(yieldsToLandingZone),
        \(indent)    maxReachScreens: \(Self.literal(maxReachScreens)),
        \(indent)    restingFloorScreens: \(pacedFloor.map(Self.literal) ?? "nil")\(reachArguments(indent: indent)))
        """
    }

    /// The learned reach's arguments where they differ from the policy's
    /// defaults: `, gestureReach: …, reachProbability: …`, each on its line.
    func reachArguments(indent: String) -> String {
        var text = ""
        if gestureReach != .shipped {
            text += ",\n\(indent)    gestureReach: " + (gestureReach?.swiftLiteral(indent: indent + "    ") ?? "nil")
        }
        if gestureReach != nil, reachProbability != AdaptivePrefetchPolicy.defaultReachProbability {
            text += ",\n\(indent)    reachProbability: \(reachProbability)"
        }
        return text
    }

    /// How the fetcher hedges with these settings (`AsyncFetcher(hedging:)`):
    /// what the real replay's fetcher is made with for `adaptive`.
    public var fetcherHedging: FetchHedging {
        guard hedgesSlowLoads else { return .off }
        return hedgePrior.map { .afterP90WithPrior($0) } ?? .afterP90
    }

    /// The fetcher's `hedgesDueSoonAtOnce:` argument over a link of
    /// `bandwidth`: on with ``hedgesDuePrefetches``, but on a link of
    /// limited bandwidth, where a second transfer slows every other (what
    /// the real replay's fetcher is made with, and the simulator's loader
    /// does).
    public func hedgesDueSoonAtOnce(over bandwidth: NetworkModel.Bandwidth) -> Bool {
        hedgesDuePrefetches && bandwidth == .unlimited
    }

    /// The fetcher's `hedging:` argument.
    var hedgingLiteral: String {
        switch fetcherHedging {
        case .afterP90WithPrior(let prior): ".afterP90WithPrior(.milliseconds(\(Int(prior / .milliseconds(1)))))"
        case .afterP90: ".afterP90"
        case .after(let threshold): ".after(.milliseconds(\(Int(threshold / .milliseconds(1)))))"
        case .off: ".off"
        }
    }

    /// The floor when the window follows the reader's pace; `nil` for a fixed
    /// window — no floor, or one at or above the resting window ahead, which
    /// leaves nothing to size (``AdaptivePrefetchPolicy/isPaceSized``).
    public var pacedFloor: Double? {
        AdaptivePrefetchPolicy.pacedFloor(restingFloorScreens, cap: restingLeadingScreens)
    }

    public var description: String {
        "margin \(marginMilliseconds) ms, resting \(Self.literal(restingLeadingScreens)) ahead / "
            + "\(Self.literal(restingTrailingScreens)) behind"
            + (pacedFloor.map { " (paced, at least \(Self.literal($0)))" } ?? " (fixed)")
            + ", reach \(Self.literal(maxReachScreens)) screens, "
            + "\(yieldsToLandingZone ? "yields to the landing zone" : "loads what a fling passes"), "
            + "\(maxConcurrentLoads) at once"
            + (hedgesSlowLoads ? ", hedges slow visible loads" : "")
            + (hedgePrior.map { " (after \(Int($0 / .milliseconds(1))) ms before 3 have landed)" } ?? "")
            + reachDescription
    }

    /// How the learned reach sizes the resting window, for the description.
    var reachDescription: String {
        guard let gestureReach else { return ", no learned reach" }
        let whose = gestureReach == .shipped ? "the shipped" : "its own"
        return ", \(whose) learned reach at \(Int((reachProbability * 100).rounded())) %"
    }

    /// A number as Swift source: `2.5`, `1.0`.
    static func literal(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? "\(Int(value)).0" : "\(value)"
    }
}
