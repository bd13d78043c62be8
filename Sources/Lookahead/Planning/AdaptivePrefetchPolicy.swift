/// Lookahead's own policy: ask for each item in time for its predicted
/// appearance, earliest first.
///
/// Fixed windows ask for too little in a fling and too much while reading.
/// This policy works in time instead of distance:
/// - It predicts when each item ahead enters the viewport. At fling speeds
///   it uses UIScrollView's deceleration (0.998 per ms; the fling comes to
///   rest 0.499·v away). At drag speeds it assumes the finger keeps going.
/// - It estimates how long a load takes: the 99th percentile of recent load
///   durations (fed back by the driver), plus the wait in the loader's queue.
///   Both predictions — when an item appears, when its load lands — come
///   from its `ArrivalPredictor`, the core the SwiftUI window and the
///   paging trigger share.
/// - It asks for an item when its predicted appearance falls within that
///   estimate plus a margin, earliest appearance first.
/// - In a fast fling it skips the items the fling will have carried off the
///   screen before a typical load (the median) could deliver them, and tells
///   cells showing such items to ask at low priority
///   (a display priority below `.high`), so the concurrency goes to
///   where the fling lands.
/// - It cancels with hysteresis: an item it asked for stays wanted while it
///   remains within reach, so a wobbling direction causes no
///   cancel-and-restart churn.
/// - When the app announces where a fling will land (`ScrollFrame.targetOffset`,
///   from `scrollViewWillEndDragging`), it asks for that landing zone on that
///   very frame, instead of inferring it from two frames of coasting. The
///   motion ends there: nothing past the landing is asked for on the
///   strength of the motion, and the frame that reaches it rests.
/// - It keeps a window ahead (and, while the list rests, behind), at most
///   `restingLeadingScreens` (2.5) ahead and `restingTrailingScreens` (1.5)
///   behind. For a reader who has not flicked for `flingMemory` (30 s) it is
///   sized from the reader's pace (`ReadingPace`: points per second over
///   the last few seconds, pauses included) times the load estimate plus the
///   margin — what the reader reaches before a load asked for now lands —
///   times `paceSafetyFactor` (3: a pace is an average, and the next gesture
///   may be a flick), between `restingFloorScreens` (1: the next screen) and
///   those caps (behind keeps the caps' proportion to ahead). A reader who
///   moves a screen every few seconds over 120 ms loads needs little ahead,
///   and what the window holds when the reader leaves is loaded for nothing.
///   Within `flingMemory` of a frame at fling speed, and of the list's
///   opening, the window ahead stays at the cap whatever the pace: an
///   average over seconds of looking hides the flick before them, a reader
///   who flicked will flick again, and a list opens on a reader it has not
///   seen. A paced reader's slow drag reaches no further than the paced
///   window (and a quarter screen): it is part of the pace, not a finger
///   going on for a whole load time of seconds: it wastes far less on a
///   slow reader for the same blank cells (docs/decisions.md, "A window
///   sized from the reader's pace"). Set `restingFloorScreens` to `nil` for
///   the fixed window; `lookahead tune` tells which pays on an app's own
///   traces.
/// - While the list rests, it also holds where the next gesture likely
///   goes: its ``gestureReach`` (``GestureReach/shipped`` by default), learned
///   from scroll traces, gives for each distance ahead and behind the share
///   of rests, after a gesture of the last one's peak speed, that came within
///   reach of it; every item that at least ``reachProbability`` of them
///   reached is held, up to `maxReachScreens`. After a reader's drag that
///   adds nothing to the window above; after a hard fling it reaches
///   farther, behind most of all (a user who flung past often comes back).
/// - While the list rests, what lies ahead in the last direction of travel
///   loads first: an item behind is ordered as if `restingTrailingWeight`
///   (3) times farther than it is. The window behind insures against a
///   reversal; on a link the loads share, interleaving it nearest first
///   with what is ahead leaves the next gesture's path unloaded.
///
/// - Complexity: O(log n + window) per frame: it looks only at the items
///   between the viewport and the farthest point it can reach in time.
public struct AdaptivePrefetchPolicy: PrefetchPolicyProtocol, LoadDurationObserving {
    /// The adaptive core, in points: load durations (the 99th percentile by
    /// default), the frames' velocity, the margin and the fling speed.
    package private(set) var predictor: ArrivalPredictor
    /// Added to the load estimate: a load asked for exactly in time would
    /// still be late one time in ten.
    public var margin: Duration {
        get { predictor.margin }
        set { predictor.margin = newValue }
    }
    /// Below this speed (pt/s) the list counts as resting.
    public var restingSpeed: Double
    /// Above this speed (pt/s) the motion counts as a fling (decelerating);
    /// below it, as a drag (steady).
    public var flingSpeed: Double {
        get { predictor.flingSpeed }
        set { predictor.flingSpeed = newValue }
    }
    /// At most this many screens held ahead (in the last direction of
    /// travel) while resting, and always ahead while moving: the window of a
    /// fast reader.
    public var restingLeadingScreens: Double
    /// At most this many screens held behind while resting.
    public var restingTrailingScreens: Double
    /// While resting, an item behind is ordered as if this many times
    /// farther than it is (3 by default), so that what lies ahead in the last
    /// direction of travel loads first; 1 orders both sides nearest first.
    public var restingTrailingWeight: Double
    /// ``restingTrailingWeight`` by default.
    public static let defaultRestingTrailingWeight = 3.0
    /// At least this many screens held ahead, however slow the reader (1 by
    /// default: the next screen). `nil`, or a floor at or above the cap
    /// ``restingLeadingScreens``: a fixed window, not sized from the reader's
    /// pace (``isPaceSized``).
    public var restingFloorScreens: Double?
    /// The reader's pace, fed by the frames.
    package var readingPace: ReadingPace
    /// How many times the distance the reader's pace covers within a load
    /// time is held ahead: a pace is an average, and the next gesture may
    /// be a flick.
    public var paceSafetyFactor: Double
    /// How long after a frame at `flingSpeed` or faster, and after the
    /// list's first frame, the window ahead stays at the cap,
    /// ``restingLeadingScreens``, whatever the pace (30 s by default): a
    /// pace averaged over a look of a few seconds hides the flick before it,
    /// the next gesture of a reader who flicked is likely another, and a list
    /// opens on a reader it has not seen. Matters only with a
    /// ``restingFloorScreens``.
    public var flingMemory: Duration
    /// In a fling, an item that would be on screen for less than this is skipped.
    public var flyByTime: Duration
    /// Whether a fling's passing items are skipped and shown at low priority.
    public var yieldsToLandingZone: Bool
    /// How far, in screens, the policy looks ahead at most.
    public var maxReachScreens: Double
    /// Where the next gesture from a rest goes, learned from scroll traces
    /// (``GestureReach/shipped`` by default): the resting window also holds
    /// every item that at least ``reachProbability`` of rests after a
    /// gesture like the last one came within reach of, up to
    /// `maxReachScreens` on either side. `nil`: the resting window of
    /// screens and pace alone.
    public var gestureReach: GestureReach?
    /// With a ``gestureReach``: the least share of rests that came within
    /// reach of an item for the resting window to hold it.
    public var reachProbability: Double

    /// What the last window held, ascending: a sorted array rather than a
    /// set, so that a frame tests membership by binary search instead of
    /// hashing the window twice.
    var held: [ItemPath] = []
    /// The last frame's time and velocity, to tell a coasting fling from a
    /// drag or an animated scroll.
    var lastMotion: (time: Duration, velocity: Double)?
    /// Whether the last frame was a fling coasting under UIScrollView's
    /// deceleration, the only motion whose landing the physics predicts.
    var isCoasting = false
    /// The offset the last frame announced as its landing, to tell the frame
    /// that reaches it.
    var lastTarget: Point?
    /// Storage kept between frames, so that a frame allocates no arrays of
    /// its own: the candidates, the window returned, and the next `held`.
    var scratch = Scratch()
    /// For the first items of the last window (the landing zone's and the
    /// candidates', not those held by hysteresis), in its order: seconds
    /// after ``windowTime`` by which each one's data is needed.
    var windowDue: [Double] = []
    /// The last frame's time.
    var windowTime: Duration = .zero
    /// The time of the last frame at `flingSpeed` or faster, or of the first
    /// frame (a list opens on a reader it has not seen): the window ahead
    /// stays at the cap for `flingMemory` after it.
    var lastFlingTime: Duration?
    /// The peak speed of the gesture in progress and of the last one: which
    /// table of the learned reach a rest reads.
    var gesturePeak = GesturePeak()

    /// Creates the policy.
    ///
    /// - Parameters:
    ///   - loadTimeQuantile: the quantile of recent load durations planned
    ///     for (the 99th percentile: a blank cell costs more than a wasted load).
    ///   - initialLoadDuration: the load time assumed before any is observed.
    ///   - margin: added to the expected load time.
    ///   - restingSpeed: below this speed (pt/s) the list rests.
    ///   - flingSpeed: above this speed (pt/s) the motion is a fling.
    ///   - restingLeadingScreens: the window ahead at rest (and the cap of a paced one).
    ///   - restingTrailingScreens: the window behind at rest.
    ///   - flyByTime: what a fling shows for less than this is skipped.
    ///   - yieldsToLandingZone: whether a fling's passing items yield to its landing.
    ///   - maxReachScreens: the farthest the policy looks ahead, in screens.
    ///   - restingFloorScreens: the window ahead follows the reader's pace,
    ///     down to this many screens; `nil`: a fixed window.
    ///   - paceSafetyFactor: how many times the paced distance is held.
    ///   - flingMemory: how long after a fling, and after the list opens, the
    ///     window ahead stays at the cap.
    ///   - restingTrailingWeight: how many times its distance an item behind
    ///     a resting list counts for, when ordering the window.
    ///   - gestureReach: where the next gesture from a rest goes, learned
    ///     from traces; `nil`: the resting window of screens and pace alone.
    ///   - reachProbability: with a `gestureReach`, the least share of rests
    ///     reaching an item for the resting window to hold it.
    public init(
        loadTimeQuantile: Double = 0.99,
        initialLoadDuration: Duration = .milliseconds(300),
        margin: Duration = .milliseconds(300),
        restingSpeed: Double = 40,
        flingSpeed: Double = 1_200,
        restingLeadingScreens: Double = 2.5,
        restingTrailingScreens: Double = 1.5,
        flyByTime: Duration = .zero,
        yieldsToLandingZone: Bool = true,
        maxReachScreens: Double = 6,
        restingFloorScreens: Double? = 1,
        paceSafetyFactor: Double = 3,
        flingMemory: Duration = .seconds(30),
        restingTrailingWeight: Double = defaultRestingTrailingWeight,
        gestureReach: GestureReach? = .shipped,
        reachProbability: Double = defaultReachProbability
    ) {
        self.init(
            predictor: ArrivalPredictor(
                loadTimeQuantile: loadTimeQuantile, initialLoadDuration: initialLoadDuration, margin: margin,
                flingSpeed: flingSpeed),
            restingSpeed: restingSpeed, restingLeadingScreens: restingLeadingScreens,
            restingTrailingScreens: restingTrailingScreens, flyByTime: flyByTime,
            yieldsToLandingZone: yieldsToLandingZone, maxReachScreens: maxReachScreens,
            restingFloorScreens: restingFloorScreens, readingPace: ReadingPace(), paceSafetyFactor: paceSafetyFactor,
            flingMemory: flingMemory, restingTrailingWeight: restingTrailingWeight, gestureReach: gestureReach,
            reachProbability: reachProbability)
    }

    /// ``reachProbability`` by default.
    public static let defaultReachProbability = 0.3

    init(
        predictor: ArrivalPredictor, restingSpeed: Double, restingLeadingScreens: Double,
        restingTrailingScreens: Double, flyByTime: Duration, yieldsToLandingZone: Bool, maxReachScreens: Double,
        restingFloorScreens: Double?, readingPace: ReadingPace, paceSafetyFactor: Double, flingMemory: Duration,
        restingTrailingWeight: Double, gestureReach: GestureReach?, reachProbability: Double
    ) {
        precondition(
            reachProbability > 0 && reachProbability <= 1, "AdaptivePrefetchPolicy: reachProbability must be in (0, 1]")
        precondition(flingMemory >= .zero, "AdaptivePrefetchPolicy: flingMemory must not be negative")
        precondition(
            restingTrailingWeight.isFinite && restingTrailingWeight >= 1,
            "AdaptivePrefetchPolicy: restingTrailingWeight must be at least 1")
        self.predictor = predictor
        self.restingSpeed = restingSpeed
        self.restingLeadingScreens = restingLeadingScreens
        self.restingTrailingScreens = restingTrailingScreens
        self.flyByTime = flyByTime
        self.yieldsToLandingZone = yieldsToLandingZone
        self.maxReachScreens = maxReachScreens
        self.restingFloorScreens = restingFloorScreens
        self.readingPace = readingPace
        self.paceSafetyFactor = paceSafetyFactor
        self.flingMemory = flingMemory
        self.restingTrailingWeight = restingTrailingWeight
        self.gestureReach = gestureReach
        self.reachProbability = reachProbability
    }

    /// The distance always held ahead, in points: what the reader's pace
    /// covers within `horizon` seconds, between the floor and the cap; the
    /// cap within `flingMemory` of the last fling or of the list's opening,
    /// and until the pace covers its span (`ReadingPace.coversSpan`).
    func leadDistance(screen: Double, horizon: Double) -> Double {
        let cap = restingLeadingScreens * screen
        guard isPaced, let restingFloorScreens else { return cap }
        let paced = readingPace.pointsPerSecond * horizon * paceSafetyFactor
        return min(cap, max(restingFloorScreens * screen, paced))
    }

    /// Whether the window ahead follows the reader's pace: a floor is set
    /// below the cap, the last fling (or the list's opening) is more than
    /// `flingMemory` ago, and the pace covers its span.
    var isPaced: Bool {
        isPaceSized && !isWithinFlingMemory && readingPace.coversSpan
    }

    /// Whether the window can follow the reader's pace at all: a floor at or
    /// above the cap leaves nothing to size, and is the fixed window.
    public var isPaceSized: Bool {
        Self.pacedFloor(restingFloorScreens, cap: restingLeadingScreens) != nil
    }

    /// `floor` when a window ahead of at most `cap` screens can follow the
    /// reader's pace down to it; `nil` for a fixed window (no floor, or one
    /// at or above the cap). The one rule for policies and their settings.
    public static func pacedFloor(_ floor: Double?, cap: Double) -> Double? {
        floor.flatMap { $0 < cap ? $0 : nil }
    }

    /// Whether the last frame came within `flingMemory` of a frame at fling
    /// speed or of the first frame.
    var isWithinFlingMemory: Bool {
        guard let lastFlingTime else { return false }
        return windowTime - lastFlingTime < flingMemory
    }

    /// Records one load's duration in the core.
    package mutating func observeLoadDuration(_ duration: Duration) {
        predictor.observeLoadDuration(duration)
    }

    /// Seconds until a fling at `speed` has carried `frame` off the screen,
    /// or `nil` if the fling stops with it still on screen or ahead.
    func passTime(of frame: Rect, visible: Rect, forward: Bool, speed: Double) -> Double? {
        let distance = forward ? frame.maxY - visible.minY : visible.maxY - frame.minY
        return ScrollPhysics.time(toTravel: distance, velocity: speed)
    }

    /// Whether a fling will have carried `frame` off the screen before a
    /// typical load (the median) asked for now could deliver it, counting the
    /// wait behind `queue`; or, for a request already made (`isHeld`), before
    /// half of that — the hysteresis for letting go.
    func isPassedBy(
        _ frame: Rect, visible: Rect, forward: Bool, speed: Double, queue: LoadQueueState, isHeld: Bool = false
    ) -> Bool {
        guard yieldsToLandingZone, isCoasting, speed >= flingSpeed,
            let passes = passTime(of: frame, visible: visible, forward: forward, speed: speed)
        else { return false }
        let typical = predictor.loadTime(atQuantile: 0.5) / .seconds(1)
        let waves = 1 + queue.queuedLoadsPerSlot
        return passes < typical * waves * (isHeld ? 0.5 : 1)
    }

    /// `.high`, but `.low` for a visible item that a fast fling will carry
    /// off the screen before a typical load could deliver it: its cell should
    /// not take a connection from the items where the fling lands.
    package func displayPriority(
        for path: ItemPath, context: PrefetchContext, layout: any CollectionLayout
    ) -> FetchPriority {
        let frame = layout.frame(at: path)
        let isPassedBy = isPassedBy(
            frame, visible: context.frame.visibleRect, forward: context.direction == .forward,
            speed: abs(context.frame.velocity), queue: context.loadQueue)
        return isPassedBy ? .low : .high
    }

    /// How long a load asked for now is expected to take: the estimate, plus
    /// the wait behind the loads already queued.
    package func expectedLoadTime(queue: LoadQueueState) -> Duration {
        predictor.expectedLoadTime(queuedLoadsPerSlot: queue.queuedLoadsPerSlot)
    }

    /// Whether `frame` continues a fling that coasts under UIScrollView's
    /// deceleration: same direction, slowing down about as the physics says
    /// (within 5% above, 15% below) — not a finger still dragging, nor an animated scroll
    /// whose ease-out brakes far harder than a fling.
    func coasts(_ frame: ScrollFrame) -> Bool {
        guard let lastMotion, frame.time > lastMotion.time, abs(frame.velocity) >= flingSpeed,
            (frame.velocity > 0) == (lastMotion.velocity > 0)
        else { return false }
        let elapsed = (frame.time - lastMotion.time) / .seconds(1)
        let expected = ScrollPhysics.velocity(after: elapsed, velocity: abs(lastMotion.velocity))
        let speed = abs(frame.velocity)
        return speed <= abs(lastMotion.velocity) * 1.05 && speed >= expected * 0.85
    }

    package mutating func window(for context: PrefetchContext, layout: any CollectionLayout) -> [ItemPath] {
        // A fling announced by its target offset coasts from its first frame.
        let announced = context.frame.targetOffset
        isCoasting = coasts(context.frame) || (announced != nil && abs(context.frame.velocity) >= flingSpeed)
        lastMotion = (context.frame.time, context.frame.velocity)
        let visible = context.frame.visibleRect
        // The frame that reaches the landing the last one announced ends that
        // motion, whatever its velocity says: an animated scroll's last step
        // reads as a fling of thousands of points per second.
        let hasArrived = announced == nil && lastTarget.map { abs($0.y - visible.minY) < 1 } == true
        lastTarget = announced
        predictor.record(velocity: context.frame.velocity, position: visible.minY, at: context.frame.time)
        readingPace.record(offset: visible.minY, at: context.frame.time)
        // A clock reset forgets the fling, as it restarts the pace; the first
        // frame, and the first after a reset, counts as a fling.
        if let lastFlingTime, context.frame.time < lastFlingTime { self.lastFlingTime = nil }
        if lastFlingTime == nil || abs(context.frame.velocity) >= flingSpeed { lastFlingTime = context.frame.time }
        windowTime = context.frame.time
        let screen = max(visible.height, 1)
        let speed = abs(predictor.velocity)
        gesturePeak.record(speed: speed, restingSpeed: restingSpeed)
        let visibleItems = Self.ascending(context.visibleItems)
        let horizon = predictor.horizon(queuedLoadsPerSlot: context.loadQueue.queuedLoadsPerSlot)

        var wanted = Scratch.take(&scratch.wanted)
        let isResting = speed < restingSpeed || hasArrived
        let forward = context.direction == .forward

        // What the motion can reach in time, and what the reader's pace does always.
        let lead = leadDistance(screen: screen, horizon: horizon)
        var reach = lead
        if !isResting {
            var travel = predictor.distance(travelledIn: horizon, speed: speed)
            if let announced, speed >= flingSpeed {
                // The physics projects where a fling stops; an announced landing
                // is where it does (an animated scroll, eased to its target, would
                // otherwise project screens past it). A drag's steady speed is
                // left alone: the tail of a fling, slower than `flingSpeed`, reads
                // as one, and on `photos` its reach past the landing served the
                // next fling (capped too, +28% blank cell-frames).
                travel = min(travel, max(0, forward ? announced.y - visible.minY : visible.minY - announced.y))
            } else if isPaced, speed < flingSpeed {
                // A paced reader's drag is part of the pace, not a finger going
                // on for the whole load horizon (a drag of 150 pt/s over the
                // seconds of `slow-network`'s loads projects more than a screen).
                travel = min(travel, lead)
            }
            reach = min(max(reach, travel + screen / 4), maxReachScreens * screen)
        }
        let trailingShare = restingLeadingScreens > 0 ? restingTrailingScreens / restingLeadingScreens : 0
        var behind = isResting ? min(restingTrailingScreens * screen, lead * trailingShare) : 0
        // At rest, the learned reach adds what the next gesture likely comes to.
        let learned = isResting ? gestureReach : nil
        let peak = gesturePeak.lastPeak
        if let learned {
            let limit = maxReachScreens * screen
            let ahead = learned.screens(reachedBy: reachProbability, ahead: true, afterGestureAt: peak) * screen
            let back = learned.screens(reachedBy: reachProbability, ahead: false, afterGestureAt: peak) * screen
            reach = max(reach, min(ahead, limit))
            behind = max(behind, min(back, limit))
        }
        let top = forward ? visible.minY - behind : visible.minY - reach
        let bottom = forward ? visible.maxY + reach : visible.maxY + behind
        let region = Rect(x: visible.minX, y: max(0, top), width: visible.width, height: max(0, bottom - max(0, top)))

        // A coasting fling's landing is known — announced by the app, or
        // projected by the physics: ask for it first, however far, for it
        // stays on screen; then the rest by deadline.
        var landingZone: Rect?
        var landing: [ItemPath] = []
        if isCoasting || announced != nil, yieldsToLandingZone {
            let travel = ScrollPhysics.projectedDistance(velocity: speed)
            let maxOffset = max(0, layout.contentSize.height - visible.height)
            let landedY = min(max(0, announced?.y ?? visible.minY + (forward ? travel : -travel)), maxOffset)
            let zone = Rect(
                x: visible.minX, y: max(0, landedY - screen / 4), width: visible.width,
                height: visible.height + screen / 2)
            landingZone = zone
            landing = layout.itemPaths(in: zone).filter { !Self.contains($0, inAscending: visibleItems) }
        }
        let landingItems = Self.ascending(landing)
        if !forward { landing.reverse() }

        for path in layout.itemPaths(in: region)
        where !Self.contains(path, inAscending: visibleItems) && !Self.contains(path, inAscending: landingItems) {
            let frame = layout.frame(at: path)
            let isAhead = forward ? frame.minY >= visible.maxY : frame.maxY <= visible.minY
            let distance = frame.verticalDistance(to: visible)
            if isResting || !isAhead {
                // Resting, or just behind: nearest first, what is behind as if
                // farther (the next gesture most likely goes on the same way).
                let weighted = isAhead ? distance : distance * restingTrailingWeight
                wanted.append((horizon + weighted / screen, distance, path))
                continue
            }
            guard let appears = predictor.appearance(inDistance: distance, speed: speed) else { continue }
            if isPassedBy(frame, visible: visible, forward: forward, speed: speed, queue: context.loadQueue) {
                continue
            }
            let isNear = distance <= lead
            guard isNear || appears <= horizon else { continue }
            if speed >= flingSpeed, !isNear {
                // Skip what the fling only flies by: on screen too briefly to matter.
                let leaveDistance = distance + visible.height + frame.height
                if let leaves = ScrollPhysics.time(toTravel: leaveDistance, velocity: speed),
                    leaves - appears < flyByTime / .seconds(1)
                {
                    continue
                }
            }
            wanted.append((appears, distance, path))
        }
        wanted.sort { ($0.time, $0.distance, $0.path) < ($1.time, $1.distance, $1.path) }
        var window = Scratch.take(&scratch.window)
        window.append(contentsOf: landing)
        for candidate in wanted { window.append(candidate.path) }
        var due = Scratch.take(&windowDue)
        for path in landing {
            due.append(landingDue(of: layout.frame(at: path), visible: visible, speed: speed))
        }
        for candidate in wanted { due.append(candidate.time) }
        scratch.wanted = wanted

        // Hysteresis: keep what was asked for while it stays within a wider
        // reach on either side, so a wobble does not cancel and restart it;
        // only a fast fling lets go of what it has passed (half a screen back).
        let keepAhead = max(reach, screen) * 1.5
        let keepBehind = speed >= flingSpeed ? max(behind, screen / 2) : keepAhead
        let keepTop = visible.minY - (forward ? keepBehind : keepAhead)
        let keepBottom = visible.maxY + (forward ? keepAhead : keepBehind)
        var chosen = Scratch.take(&scratch.held)
        chosen.append(contentsOf: window)
        chosen.sort()
        let chosenCount = chosen.count
        for path in held
        where !Self.contains(path, inAscending: chosen[..<chosenCount])
            && !Self.contains(path, inAscending: visibleItems)
        {
            // After a reload or batch update a held path may no longer exist.
            guard path.section < layout.numberOfSections, path.item < layout.numberOfItems(inSection: path.section)
            else { continue }
            let frame = layout.frame(at: path)
            // What the fling will carry past before it could load is let go, so
            // that the loads queued behind it, the landing zone's, move up.
            if isPassedBy(
                frame, visible: visible, forward: forward, speed: speed, queue: context.loadQueue, isHeld: true)
            {
                continue
            }
            let isNearLanding = landingZone.map {
                frame.maxY > $0.minY - screen / 2 && frame.minY < $0.maxY + screen / 2
            }
            if (frame.maxY > keepTop && frame.minY < keepBottom) || isNearLanding == true {
                window.append(path)
                chosen.append(path)
            }
        }
        // Two ascending runs: the sort merges them.
        chosen.sort()
        scratch.held = held
        held = chosen
        scratch.window = window
        windowDue = due
        return window
    }

    /// When, in seconds from now, an item of the landing zone at `frame` is
    /// needed: as it enters the viewport under the fling's deceleration, or
    /// when the fling has all but come to rest if the physics says it never
    /// enters; at once for a landing announced without a coasting fling (an
    /// animated scroll, which arrives within a fraction of a second).
    func landingDue(of frame: Rect, visible: Rect, speed: Double) -> Double {
        guard isCoasting else { return 0 }
        let distance = frame.verticalDistance(to: visible)
        return predictor.appearance(inDistance: distance, speed: speed) ?? Self.settlingTime
    }

    /// Seconds until a fling has covered 95% of its way, whatever its speed.
    static let settlingTime = ScrollPhysics.time(toCover: 0.95)

    /// When the items of the last window are needed, on the frames' clock:
    /// an item ahead of a moving list when it is predicted to appear; the
    /// landing zone's as the fling brings them in (at once for an animated
    /// scroll's); around a resting list, after the load horizon, nearest
    /// first. What the window holds only by hysteresis has no new
    /// prediction and is left out: its earlier deadline stands.
    package var deadlines: [(path: ItemPath, time: Duration)] {
        zip(scratch.window, windowDue).map { ($0, windowTime + .seconds($1)) }
    }

    /// `paths` in ascending order: as they come when the caller kept the
    /// documented order (the layouts' `itemPaths(in:)`, a context's visible
    /// items), else sorted.
    ///
    /// - Complexity: O(n) when ascending, O(n log n) otherwise.
    static func ascending(_ paths: [ItemPath]) -> [ItemPath] {
        guard paths.indices.dropFirst().contains(where: { paths[$0] < paths[$0 - 1] }) else { return paths }
        return paths.sorted()
    }

    /// Whether the ascending `paths` hold `path`.
    ///
    /// - Complexity: O(log n).
    static func contains(_ path: ItemPath, inAscending paths: some RandomAccessCollection<ItemPath>) -> Bool {
        let index = LayoutSearch.partitionPoint(in: 0..<paths.count) {
            paths[paths.index(paths.startIndex, offsetBy: $0)] >= path
        }
        return index < paths.count && paths[paths.index(paths.startIndex, offsetBy: index)] == path
    }
}

extension AdaptivePrefetchPolicy {
    /// Arrays a frame fills and the next one empties, their capacity kept.
    struct Scratch: Sendable {
        var wanted: [(time: Double, distance: Double, path: ItemPath)] = []
        var window: [ItemPath] = []
        var held: [ItemPath] = []

        /// `stored`, emptied with its capacity kept; `stored` is left empty,
        /// so that the caller holds the storage's only reference.
        static func take<Element>(_ stored: inout [Element]) -> [Element] {
            var array: [Element] = []
            swap(&array, &stored)
            array.removeAll(keepingCapacity: true)
            return array
        }
    }
}
