// The frame loop of every coordinator, as one pure state machine: what a
// planned frame means for the prefetches and display requests a coordinator
// holds. PrefetchCoordinator, NestedPrefetchCoordinator, the simulator and
// the real replay all run it, and perform its actions each on their loader.

/// The requests a coordinator holds, by path, and the actions each planned
/// frame takes on them: consume what came on screen, withdraw what left the
/// window, prefetch what entered it, re-date what the policy now predicts
/// differently, re-rank the display requests whose priority changed.
///
/// Pure and synchronous: no clock, no loader. A driver tells it what the
/// planner decided (``planned(_:visible:deadlines:isHeld:isNear:time:after:)``)
/// and what the cells asked for (``displayRequested(_:at:priority:isOnScreen:)``,
/// ``displayEnded(_:)``), and performs the ``Actions`` — on an
/// `AsyncFetcher` in one batch (`PrefetchCoordinator`), on the simulated
/// scheduler (`StrategyDriver`).
///
/// Prefetches are the planner's, by path: the window is a set of positions.
/// Display requests are the cells', by the ``DisplayRequestID`` their driver
/// gives each (a cell's request, a row's), with the path the cell was last
/// seen at: two cells at one path — one moved there, one asked for the item
/// now there — are two requests, and neither touches the other's.
///
/// Actions carry only what changed since the last frame: a prefetch whose
/// predicted deadline is the same is not re-dated, a display request whose
/// priority is the same is not re-ranked.
package struct CoordinatorCore<Path: Hashable & Comparable & Sendable>: Sendable {
    /// The outstanding prefetches (asked for, not consumed nor withdrawn), with
    /// the deadline last given to each (`nil`: none), on the frames' clock.
    package private(set) var prefetches: [Path: Duration?] = [:]
    /// The display requests: where each cell was last seen, and the priority
    /// last given to its request.
    package private(set) var displays: [DisplayRequestID: DisplayRecord] = [:]
    /// Display requests of cells made ahead of being shown (UIKit's cell
    /// prefetching calls `cellForItemAt` early, for cells that may never be
    /// shown): ranked no higher than `.normal` until their item is on screen.
    package private(set) var prepared: Set<DisplayRequestID> = []
    /// Display requests of cells that left the screen: at `.veryLow`, no longer
    /// re-ranked, taken back by the cell if it is shown again (UIKit
    /// re-displays a recently used cell without a new `cellForItemAt`).
    package private(set) var departed: Set<DisplayRequestID> = []
    /// Display requests whose item is no longer known to be where their cell
    /// was (a reload moved it, or removed it): at `.veryLow` like a departed
    /// cell's, withdrawn at the next planned frame unless their cell is shown
    /// or asks again first — by then the cells that show the item now have
    /// joined its load, so a load the screen still needs is not restarted.
    package private(set) var stale: Set<DisplayRequestID> = []

    /// Where a display request's cell was last seen, and its priority.
    package struct DisplayRecord: Sendable, Equatable {
        package var path: Path
        package var priority: FetchPriority
    }
    // A prepared or departed cell's request is withdrawn once its item is out
    // of reach: neither on screen, nor held, nor near (`planned`'s `isNear`),
    // for UIKit may still show a cell it keeps without asking for it again.
    /// Prefetches consumed (their item came on screen), whose requests go on
    /// at `.low` while their item stays within reach: withdrawn with the
    /// path's next withdrawal, forgotten once neither on screen nor held.
    package private(set) var consumed: Set<Path> = []
    /// Whether prefetches are dated from the policy's predictions.
    package var datesPrefetches: Bool
    /// A prediction that moved less than this, or than an eighth of the time
    /// until its item is due, is not re-dated: the queue's order among items
    /// due that close together does not matter.
    package var dateTolerance: Duration
    /// The prefetches due within this long of a frame are named in
    /// ``Actions/predicted``: a fetcher that hedges a prefetch due soon
    /// (``FetchHedging/dueWithin``) checks them.
    package var dueSoonWithin: Duration

    /// What a frame asks of the loader, in the order to perform it.
    package struct Actions: Sendable {
        /// Prefetches whose item came on screen: handed to the cells' display
        /// requests, their load going on at `.low` (never raised).
        package var consume: [Path] = []
        /// Prefetches to withdraw: their item left the window.
        package var withdraw: [Path] = []
        /// Prefetches to make (dated by ``date`` in the same frame).
        package var prefetch: [Path] = []
        /// Prefetches whose deadline moved (absolute, on the frames' clock).
        package var date: [(path: Path, deadline: Duration)] = []
        /// Every outstanding prefetch the policy predicted due within
        /// ``CoordinatorCore/dueSoonWithin`` of this frame, changed or not: a
        /// fetcher that hedges prefetches due soon checks them.
        package var predicted: [Path] = []
        /// Display requests whose priority changed.
        package var rank: [(id: DisplayRequestID, priority: FetchPriority)] = []
        /// Display requests of cells that left and whose item went out of
        /// reach, or whose item went away: the driver withdraws its own.
        package var withdrawDisplay: [DisplayRequestID] = []
        /// Consumed prefetches forgotten (their item neither on screen nor
        /// held): their requests are left to finish, no longer withdrawn.
        package var forget: [Path] = []

        package init() {}

        /// Whether there is nothing to do.
        package var isEmpty: Bool {
            consume.isEmpty && withdraw.isEmpty && prefetch.isEmpty && date.isEmpty && predicted.isEmpty
                && rank.isEmpty && forget.isEmpty && withdrawDisplay.isEmpty
        }
    }

    package init(
        datesPrefetches: Bool = true, dateTolerance: Duration = CoordinatorCore.defaultDateTolerance,
        dueSoonWithin: Duration = FetchHedging.dueWithin
    ) {
        self.datesPrefetches = datesPrefetches
        self.dateTolerance = dateTolerance
        self.dueSoonWithin = dueSoonWithin
    }

    /// Half a 120 Hz frame.
    package static var defaultDateTolerance: Duration { .milliseconds(4) }

    /// Whether a prediction dated `last` that is now `deadline` at `time`
    /// moved enough to be re-dated: by `tolerance`, and by an eighth of the
    /// time until the item is due. Far-off predictions move every frame and
    /// matter little (docs/decisions.md, "Re-dating a prefetch").
    package static func movedEnough(
        from last: Duration, to deadline: Duration, at time: Duration, tolerance: Duration
    ) -> Bool {
        let moved = last > deadline ? last - deadline : deadline - last
        guard moved >= tolerance else { return false }
        // Eight times by adding: `Duration * Int` is generic over the integer
        // type, and slow where it is not specialized.
        let twice = moved + moved
        let fourTimes = twice + twice
        return fourTimes + fourTimes >= min(last, deadline) - time
    }

    // MARK: Frames

    /// A frame was planned at `time`: `update` is the planner's, `visible`
    /// the paths on screen, `deadlines` when the policy predicts each
    /// item is needed, `isHeld` whether the planner's window holds a path (a
    /// consumed prefetch is forgotten once its path is neither on screen nor
    /// held). The display requests were re-ranked before the frame was
    /// planned (``rank(_:into:)``); the actions go on from `actions`.
    ///
    /// - Complexity: O(visible + update + deadlines + display requests).
    package mutating func planned(
        _ update: PrefetchUpdate<Path>, visible: [Path], deadlines: [(path: Path, time: Duration)],
        isHeld: (Path) -> Bool, isNear: (Path) -> Bool = { _ in false }, time: Duration,
        after actions: Actions = Actions()
    ) -> Actions {
        var actions = actions
        if !prefetches.isEmpty {
            for path in visible where prefetches.removeValue(forKey: path) != nil {
                actions.consume.append(path)
                consumed.insert(path)
            }
        }
        withdraw(update.cancel, into: &actions)
        // A path held already (asked for by UIKit's own window) keeps its
        // request: a second one would leave the first running untracked.
        for path in update.prefetch where prefetches.updateValue(Duration?.none, forKey: path) == nil {
            actions.prefetch.append(path)
        }
        if datesPrefetches {
            let soon = time + dueSoonWithin
            for (path, deadline) in deadlines {
                guard let last = prefetches[path] else { continue }
                if deadline <= soon { actions.predicted.append(path) }
                // A prediction that crosses into the due-soon window is re-dated
                // whatever it moved: the fetcher hedges by the deadline it holds.
                if let last, !(deadline <= soon && last > soon),
                    !Self.movedEnough(from: last, to: deadline, at: time, tolerance: dateTolerance)
                {
                    continue
                }
                prefetches[path] = deadline
                actions.date.append((path, deadline))
            }
        }
        if !consumed.isEmpty {
            let outstanding = prefetches
            forgetConsumed(outside: { visible.contains($0) || isHeld($0) || outstanding[$0] != nil }, into: &actions)
        }
        if !departed.isEmpty || !prepared.isEmpty || !stale.isEmpty {
            withdrawOffscreen(outside: { visible.contains($0) || isHeld($0) || isNear($0) }, into: &actions)
        }
        return actions
    }

    /// Prefetches `paths` outside a planned frame (UIKit's own window): held
    /// as a frame's are, without a deadline. Paths already held are left.
    package mutating func prefetch(_ paths: [Path]) -> Actions {
        var actions = Actions()
        for path in paths where prefetches[path] == nil {
            prefetches[path] = .some(nil)
            actions.prefetch.append(path)
        }
        return actions
    }

    /// Withdraws the outstanding prefetches of `paths` (a planner's cancels,
    /// a reload's): named in the actions, forgotten here.
    package mutating func withdraw(_ paths: [Path], into actions: inout Actions) {
        for path in paths {
            let wasHeld = prefetches.removeValue(forKey: path) != nil
            if consumed.remove(path) != nil || wasHeld { actions.withdraw.append(path) }
        }
    }

    /// Forgets the consumed prefetches whose path `isInReach` no longer
    /// names (neither on screen nor held): their requests are left to finish.
    package mutating func forgetConsumed(outside isInReach: (Path) -> Bool, into actions: inout Actions) {
        guard !consumed.isEmpty else { return }
        for path in consumed where !isInReach(path) { actions.forget.append(path) }
        for path in actions.forget { consumed.remove(path) }
    }

    /// Withdraws the display requests of cells off screen (made ahead, or
    /// departed) whose item `isInReach` no longer names, and the stale ones.
    package mutating func withdrawOffscreen(outside isInReach: (Path) -> Bool, into actions: inout Actions) {
        let first = actions.withdrawDisplay.count
        for id in departed where stale.contains(id) || !isInReach(displays[id]?.path ?? Self.missing(id)) {
            actions.withdrawDisplay.append(id)
        }
        for id in prepared where stale.contains(id) || !isInReach(displays[id]?.path ?? Self.missing(id)) {
            actions.withdrawDisplay.append(id)
        }
        for id in stale where !departed.contains(id) && !prepared.contains(id) { actions.withdrawDisplay.append(id) }
        guard actions.withdrawDisplay.count > first else { return }
        // In path order, whatever the sets': a run is a function of its seed.
        let displays = self.displays
        actions.withdrawDisplay[first...].sort { Self.ordered($0, $1, in: displays) }
        for id in actions.withdrawDisplay[first...] { forget(id) }
    }

    /// Whether `a` comes before `b`: by path, then by identifier.
    private static func ordered(
        _ a: DisplayRequestID, _ b: DisplayRequestID, in displays: [DisplayRequestID: DisplayRecord]
    ) -> Bool {
        let pathA = displays[a]?.path
        let pathB = displays[b]?.path
        if let pathA, let pathB, pathA != pathB { return pathA < pathB }
        return a < b
    }

    private static func missing(_ id: DisplayRequestID) -> Path {
        preconditionFailure("CoordinatorCore: display request \(id) is departed or prepared without a record")
    }

    /// Re-ranks every display request whose priority `displayPriority` now
    /// gives differently: at the start of a frame, with the planner's
    /// priorities as of the frame before (what the simulator's figures were
    /// measured with; re-ranked after planning, `photos` seeds 1 and 2 left
    /// 6% more blank cell-frames). A departed or stale cell's request stays
    /// `.veryLow`; a prepared cell's is ranked no higher than `.normal` until
    /// `isOnScreen`.
    package mutating func rank(
        _ displayPriority: (Path) -> FetchPriority, isOnScreen: (Path) -> Bool, into actions: inout Actions
    ) {
        let first = actions.rank.count
        for (id, record) in displays {
            if !departed.isEmpty, departed.contains(id) { continue }
            if !stale.isEmpty, stale.contains(id) { continue }
            var priority = displayPriority(record.path)
            if !prepared.isEmpty, prepared.contains(id) {
                if isOnScreen(record.path) {
                    prepared.remove(id)
                } else {
                    priority = min(priority, Self.preparedPriority)
                }
            }
            guard priority != record.priority else { continue }
            displays[id]?.priority = priority
            actions.rank.append((id, priority))
        }
        // In path order, whatever the dictionary's: a run is a function of its seed.
        if actions.rank.count - first > 1 {
            let displays = self.displays
            actions.rank[first...].sort { Self.ordered($0.id, $1.id, in: displays) }
        }
    }

    // MARK: Cells

    /// Cell `id` asked for the item at `path`, at `priority` if it is on
    /// screen, no higher than `.normal` if it is made ahead. Returns the
    /// priority to ask at (and to move its request to, if it had one).
    @discardableResult
    package mutating func displayRequested(
        _ id: DisplayRequestID, at path: Path, priority: FetchPriority, isOnScreen: Bool = true
    ) -> FetchPriority {
        departed.remove(id)
        stale.remove(id)
        let priority = isOnScreen ? priority : min(priority, Self.preparedPriority)
        if isOnScreen { prepared.remove(id) } else { prepared.insert(id) }
        displays[id] = DisplayRecord(path: path, priority: priority)
        return priority
    }

    /// Cell `id` is shown (again) at `path`: its request, if it has one, is
    /// ranked at `priority`, whether it was made ahead or left the screen.
    package mutating func displayShown(_ id: DisplayRequestID, at path: Path, priority: FetchPriority) -> Actions {
        var actions = Actions()
        guard let record = displays[id] else { return actions }
        prepared.remove(id)
        departed.remove(id)
        stale.remove(id)
        displays[id]?.path = path
        if record.priority != priority {
            displays[id]?.priority = priority
            actions.rank.append((id, priority))
        }
        return actions
    }

    /// The most a cell made ahead of being shown asks at.
    package static var preparedPriority: FetchPriority { .normal }

    /// The priority a departed cell's request goes on at: behind every
    /// prefetch and every cell on screen or about to be.
    package static var departedPriority: FetchPriority { .veryLow }

    /// Cell `id` left the screen: its request goes on at `.veryLow` until the
    /// cell is shown again or its item goes out of reach.
    package mutating func displayLeft(_ id: DisplayRequestID) -> Actions {
        var actions = Actions()
        guard displays[id] != nil else { return actions }
        prepared.remove(id)
        departed.insert(id)
        lower(id, into: &actions)
        return actions
    }

    /// Cell `id` asked for another item: its request, let go of, goes stale —
    /// lowered, withdrawn at the next planned frame unless its driver
    /// withdraws it first (another cell asked for its item, or none did
    /// by the end of the layout pass).
    package mutating func displayLetGo(_ id: DisplayRequestID) -> Actions {
        var actions = Actions()
        guard displays[id] != nil else { return actions }
        prepared.remove(id)
        departed.remove(id)
        stale.insert(id)
        lower(id, into: &actions)
        return actions
    }

    /// The display requests `ids` are to be withdrawn (those still recorded
    /// are named in the actions and forgotten).
    package mutating func withdrawDisplays(_ ids: [DisplayRequestID]) -> Actions {
        var actions = Actions()
        for id in ids where displays[id] != nil {
            actions.withdrawDisplay.append(id)
            forget(id)
        }
        return actions
    }

    /// The display request `id` ended (withdrawn, or answered): no longer ranked.
    package mutating func displayEnded(_ id: DisplayRequestID) {
        forget(id)
    }

    /// The cells' paths changed in a way the driver could not follow (a
    /// reload): each display request `newPath` places is kept there; the
    /// others go stale — lowered, and withdrawn at the next planned frame
    /// unless their cell is shown or asks again before.
    package mutating func displaysReloaded(_ newPath: (DisplayRequestID, Path) -> Path?) -> Actions {
        moveDisplays(newPath, whenGone: .stale)
    }

    /// Moves each display request to its item's new path (`newPath`); those
    /// whose item is gone (`nil`) are named to withdraw.
    package mutating func remapDisplays(_ newPath: (DisplayRequestID, Path) -> Path?) -> Actions {
        moveDisplays(newPath, whenGone: .withdraw)
    }

    private enum GoneDisplay { case stale, withdraw }

    private mutating func moveDisplays(
        _ newPath: (DisplayRequestID, Path) -> Path?, whenGone gone: GoneDisplay
    ) -> Actions {
        var actions = Actions()
        for (id, record) in displays.sorted(by: { Self.ordered($0.key, $1.key, in: displays) }) {
            if let new = newPath(id, record.path) {
                displays[id]?.path = new
            } else if gone == .stale {
                stale.insert(id)
                lower(id, into: &actions)
            } else {
                actions.withdrawDisplay.append(id)
                forget(id)
            }
        }
        return actions
    }

    private mutating func lower(_ id: DisplayRequestID, into actions: inout Actions) {
        guard let record = displays[id], record.priority != Self.departedPriority else { return }
        displays[id]?.priority = Self.departedPriority
        actions.rank.append((id, Self.departedPriority))
    }

    private mutating func forget(_ id: DisplayRequestID) {
        displays[id] = nil
        if !prepared.isEmpty { prepared.remove(id) }
        if !departed.isEmpty { departed.remove(id) }
        if !stale.isEmpty { stale.remove(id) }
    }

    /// The ids of the display requests whose cell was last seen at `path`, in order.
    package func displayRequests(at path: Path) -> [DisplayRequestID] {
        displays.filter { $0.value.path == path }.map(\.key).sorted()
    }

    // MARK: Changes

    /// How many records the core keeps, of prefetches and display requests.
    package var entryCount: Int {
        prefetches.count + consumed.count + displays.count + prepared.count + departed.count + stale.count
    }

    /// Withdraws every prefetch, outstanding or consumed (named in the
    /// actions); display requests are left alone.
    package mutating func withdrawAllPrefetches() -> Actions {
        var actions = Actions()
        actions.withdraw = Set(prefetches.keys).union(consumed).sorted()
        prefetches.removeAll()
        consumed.removeAll()
        return actions
    }

    /// Withdraws everything: every prefetch (named in the actions) and every
    /// display request (the driver withdraws its own).
    package mutating func reset() -> Actions {
        var actions = withdrawAllPrefetches()
        actions.withdrawDisplay = displays.keys.sorted()
        displays.removeAll()
        prepared.removeAll()
        departed.removeAll()
        stale.removeAll()
        return actions
    }

    /// Moves each prefetch to its item's new path; those of items gone
    /// (`newPath` gives `nil`) are named to withdraw, by their path before,
    /// and so is a prefetch whose new path another one took first (in path
    /// order): nothing replaced is left running untracked. Display requests
    /// move with ``remapDisplays(_:)``.
    package mutating func remap(_ newPath: (Path) -> Path?) -> Actions {
        var actions = Actions()
        var moved: [Path: Duration?] = [:]
        moved.reserveCapacity(prefetches.count)
        var taken: Set<Path> = []
        for path in prefetches.keys.sorted() {
            if let new = newPath(path), taken.insert(new).inserted {
                moved[new] = prefetches[path] ?? nil
            } else {
                actions.withdraw.append(path)
            }
        }
        prefetches = moved
        var movedConsumed: Set<Path> = []
        for path in consumed.sorted() {
            if let new = newPath(path), !movedConsumed.contains(new) {
                movedConsumed.insert(new)
            } else {
                actions.withdraw.append(path)
            }
        }
        consumed = movedConsumed
        return actions
    }
}
