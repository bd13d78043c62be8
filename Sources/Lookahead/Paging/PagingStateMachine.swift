package import DequeModule

/// The pure state machine that decides which page of a paged list loads, and
/// when: the batch strategy of the pagination tutorials, done right.
///
/// `PagingStateMachine` performs no I/O, reads no clock and starts no task. A
/// driver (``Pager`` at run time, the simulator in virtual time) feeds it
/// events — the UI accessed an index, a page loaded or failed, a retry timer
/// fired — and performs the actions they return.
///
/// ## Model
/// The loaded items are a run of contiguous pages. Only the page after the
/// last one (an *append*) and the page before the first one (a *prepend*) can
/// load, each at most once at a time, and only when an access comes within
/// `prefetchDistance` of that end — so a page is never requested twice and an
/// end-of-list trigger never fires twice. The first load (or a refresh) runs
/// alone. With `maxSize`, pages at the end away from the last access are
/// dropped and load again, as appends or prepends, when scrolled back to.
///
/// *Positions* count items in the server's list: the first loaded page starts
/// at position `leading`. The list shown to the UI has placeholders before and
/// after the loaded items when the server reports a total count; otherwise it
/// holds only the loaded items and its index 0 is the first loaded one.
///
/// Items keep their identity: an item whose `id` is already loaded (the
/// server's list shifted between two pages) is not added again.
///
/// ## Invariants
/// - `items` holds exactly the items of `pages`, in order, with distinct ids.
/// - At most one initial load, one append and one prepend are in flight or
///   backing off; while the initial load is, no append or prepend is.
/// - A page within `pageSize + 2 × prefetchDistance` of the last access is
///   never dropped.
///
/// `checkInvariants()` verifies these by brute force; tests call it.
package struct PagingStateMachine<Item: Identifiable & Sendable> {
    /// What the driver must do.
    public enum Action: Hashable, Sendable {
        /// Load the page; report it with `pageLoaded` or `pageFailed`.
        case load(PageRequest)
        /// Call `retryTimerFired(_:)` with the request after this delay.
        case retry(PageRequest, after: Duration)
        /// Stop loading the page: its result is no longer wanted (and is ignored).
        case cancel(PageRequest)
        /// These list indices (as they were before) lost their items to
        /// `maxSize`: they become placeholders when the list has them, or are
        /// removed from the list when it does not.
        case dropped(Range<Int>)
    }

    /// Where one load (initial, append or prepend) stands.
    enum Slot: Hashable {
        case idle
        case loading(PageRequest, failures: Int)
        case backingOff(PageRequest, failures: Int)
        case failed(PageRequest, error: String)

        var isIdle: Bool { self == .idle }

        var inFlight: PageRequest? {
            if case .loading(let request, _) = self { return request }
            return nil
        }

        var request: PageRequest? {
            switch self {
            case .idle: return nil
            case .loading(let request, _), .backingOff(let request, _), .failed(let request, _): return request
            }
        }
    }

    /// A neighbouring page to load: where it starts and how many items.
    struct Neighbour: Hashable {
        var key: PageRequest.Key
        var limit: Int
    }

    struct PageRecord {
        /// Items kept from the page after de-duplication.
        var count: Int
        var next: Neighbour?
        var previous: Neighbour?
    }

    /// How the last access asked for more.
    enum AccessHint: Hashable {
        case fixed
        case adaptive(itemsPerSecond: Double, pageLatency: Duration)
    }

    public let configuration: PagingConfiguration

    var pages: Deque<PageRecord> = []
    var storage: Deque<Item> = []
    var ids: Set<Item.ID> = []
    /// The position of the first loaded item.
    var leading = 0
    var knownTotalCount: Int?
    var lastAccess: Int?
    var hint = AccessHint.fixed
    var initial = Slot.idle
    var append = Slot.idle
    var prepend = Slot.idle
    var generation = 0
    var isStarted = false
    /// The items the first screen shows, when the driver said: the first load
    /// asks for that many, then at once for the rest of `initialLoadSize`.
    var firstScreenItemCount: Int?
    /// Whether the rest of the first load is still to ask for.
    var isFirstLoadSplit = false

    /// Creates a state machine; nothing loads until `start()`.
    public init(configuration: PagingConfiguration) {
        self.configuration = configuration
    }

    // MARK: Queries

    /// The loaded items, in list order, without placeholders.
    /// - Complexity: O(1); iterating is O(n).
    public var items: Deque<Item> { storage }

    /// The number of loaded items.
    /// - Complexity: O(1)
    public var count: Int { storage.count }

    /// The length of the whole list when the server reported one.
    public var totalCount: Int? { knownTotalCount }

    /// Placeholders before the loaded items: positions the list knows exist
    /// but has not loaded (or has dropped). Zero without a total count.
    /// - Complexity: O(1)
    public var leadingPlaceholderCount: Int {
        guard knownTotalCount != nil, let first = pages.first, first.previous != nil else { return 0 }
        return leading
    }

    /// Placeholders after the loaded items. Zero without a total count, and
    /// once the end is reached (the server's count may be stale).
    /// - Complexity: O(1)
    public var trailingPlaceholderCount: Int {
        guard let total = knownTotalCount, let last = pages.last, last.next != nil else { return 0 }
        return max(0, total - leading - storage.count)
    }

    /// All placeholders: positions the list shows without an item.
    /// - Complexity: O(1)
    public var placeholderCount: Int { leadingPlaceholderCount + trailingPlaceholderCount }

    /// The number of rows the list shows: loaded items plus placeholders.
    /// - Complexity: O(1)
    public var itemCount: Int { leadingPlaceholderCount + storage.count + trailingPlaceholderCount }

    /// The item at `index` of the list, or `nil` for a placeholder or an
    /// index out of the list.
    /// - Complexity: O(1)
    public func item(at index: Int) -> Item? {
        let offset = index - leadingPlaceholderCount
        guard offset >= 0, offset < storage.count else { return nil }
        return storage[offset]
    }

    /// The state of the first load or the last refresh.
    public var refreshState: PagingLoadState { Self.state(of: initial, endReached: false) }

    /// The state of loading after the last loaded page.
    public var appendState: PagingLoadState {
        Self.state(of: append, endReached: initial.isIdle && isStarted && !pages.isEmpty && pages.last!.next == nil)
    }

    /// The state of loading before the first loaded page.
    public var prependState: PagingLoadState {
        Self.state(
            of: prepend, endReached: initial.isIdle && isStarted && !pages.isEmpty && pages.first!.previous == nil)
    }

    /// The requests in flight now (initial, append, prepend).
    public var requestsInFlight: [PageRequest] {
        [initial.inFlight, append.inFlight, prepend.inFlight].compactMap { $0 }
    }

    static func state(of slot: Slot, endReached: Bool) -> PagingLoadState {
        switch slot {
        case .idle: return endReached ? .endReached : .idle
        case .loading, .backingOff: return .loading
        case .failed(_, let error): return .failed(error)
        }
    }

    // MARK: Events

    /// Starts the first load. Calling it again does nothing.
    ///
    /// - Parameter firstScreenItemCount: how many items the first screen
    ///   shows, if known. When it is below `initialLoadSize`, the first
    ///   request asks for just that many — on a slow link a smaller response
    ///   lands sooner, and the screen is what the user waits for — and the
    ///   page that answers it asks at once for the rest of `initialLoadSize`,
    ///   as an append, before any access — with the page after it when the
    ///   whole first load would have asked for that one on landing.
    ///   `refresh()` does the same.
    /// - Precondition: `firstScreenItemCount` is at least 1.
    public mutating func start(firstScreenItemCount: Int? = nil) -> [Action] {
        guard !isStarted else { return [] }
        if let firstScreenItemCount {
            precondition(
                firstScreenItemCount >= 1,
                "PagingStateMachine: firstScreenItemCount must be at least 1, got \(firstScreenItemCount)")
        }
        isStarted = true
        self.firstScreenItemCount = firstScreenItemCount
        return [.load(startInitialLoad())]
    }

    /// Reloads the list from its start: cancels what is in flight and keeps
    /// showing the current items until the new first page replaces them.
    public mutating func refresh() -> [Action] {
        guard isStarted else { return start() }
        var actions: [Action] = []
        for slot in [initial, append, prepend] {
            if let request = slot.inFlight { actions.append(.cancel(request)) }
        }
        append = .idle
        prepend = .idle
        generation += 1
        actions.append(.load(startInitialLoad()))
        return actions
    }

    /// The UI displayed, or asked for, the item at `index` of the list.
    ///
    /// Loads the next page at the end the index is within `prefetchDistance`
    /// of, unless one is already loading, has failed, or the end is reached.
    public mutating func accessed(index: Int) -> [Action] {
        hint = .fixed
        return record(index: index)
    }

    /// The adaptive variant of `accessed(index:)`: loads the next page when the
    /// user, at `itemsPerSecond` (positive towards the end of the list), is
    /// predicted to reach the end of the loaded items within the page latency
    /// plus `adaptiveMargin` — Texture's `remainingTime = remainingDistance /
    /// velocity` applied to pages — and in any case within `prefetchDistance`.
    public mutating func accessed(
        index: Int, velocity itemsPerSecond: Double, observedPageLatency: Duration
    ) -> [Action] {
        hint = .adaptive(itemsPerSecond: itemsPerSecond, pageLatency: observedPageLatency)
        return record(index: index)
    }

    /// A page loaded. Results of requests no longer in flight (cancelled,
    /// from before a refresh) are ignored.
    public mutating func pageLoaded(request: PageRequest, page: Page<Item>) -> [Action] {
        var actions: [Action] = []
        switch request.direction {
        case .initial:
            guard initial.inFlight == request else { return [] }
            initial = .idle
            pages.removeAll()
            storage.removeAll()
            ids.removeAll()
            if case .offset(let offset) = request.key { leading = offset } else { leading = 0 }
            knownTotalCount = page.totalCount
            let kept = deduplicated(page.items)
            storage.append(contentsOf: kept)
            pages.append(record(for: request, page: page, kept: kept.count))
            actions += requestRestOfFirstLoad(received: page.items.count)
        case .append:
            guard append.inFlight == request else { return [] }
            append = .idle
            if let total = page.totalCount { knownTotalCount = total }
            let kept = deduplicated(page.items)
            storage.append(contentsOf: kept)
            pages.append(record(for: request, page: page, kept: kept.count))
            actions += dropPages(fromFront: true)
        case .prepend:
            guard prepend.inFlight == request else { return [] }
            prepend = .idle
            if let total = page.totalCount { knownTotalCount = total }
            let kept = deduplicated(page.items)
            storage.insert(contentsOf: kept, at: 0)
            leading = max(0, leading - kept.count)
            if case .offset(let offset) = request.key { leading = offset }
            pages.prepend(record(for: request, page: page, kept: kept.count))
            actions += dropPages(fromFront: false)
        }
        actions += settle()
        return actions
    }

    /// A page failed to load. A transient failure is retried with the backoff
    /// of `retryPolicy`; a permanent one, or the last attempt, leaves the end's
    /// state `.failed` until `retry()`. Stale requests are ignored.
    public mutating func pageFailed(request: PageRequest, error: String = "", isTransient: Bool) -> [Action] {
        func fail(_ slot: inout Slot) -> [Action] {
            guard case .loading(let inFlight, let previousFailures) = slot, inFlight == request else { return [] }
            let failures = previousFailures + 1
            if isTransient, let delay = configuration.retryPolicy.delay(afterFailures: failures) {
                slot = .backingOff(request, failures: failures)
                return [.retry(request, after: delay)]
            }
            slot = .failed(request, error: error)
            return []
        }
        switch request.direction {
        case .initial: return fail(&initial)
        case .append: return fail(&append)
        case .prepend: return fail(&prepend)
        }
    }

    /// The delay of a `.retry` action passed: loads the page again.
    public mutating func retryTimerFired(_ request: PageRequest) -> [Action] {
        func fire(_ slot: inout Slot) -> [Action] {
            guard case .backingOff(let waiting, let failures) = slot, waiting == request else { return [] }
            slot = .loading(request, failures: failures)
            return [.load(request)]
        }
        switch request.direction {
        case .initial: return fire(&initial)
        case .append: return fire(&append)
        case .prepend: return fire(&prepend)
        }
    }

    /// The user asked to retry: every failed load starts again, with a fresh
    /// budget of attempts.
    public mutating func retry() -> [Action] {
        var actions: [Action] = []
        for keyPath in [\Self.initial, \Self.append, \Self.prepend] {
            if case .failed(let request, _) = self[keyPath: keyPath] {
                self[keyPath: keyPath] = .loading(request, failures: 0)
                actions.append(.load(request))
            }
        }
        return actions
    }

    // MARK: Decisions

    mutating func startInitialLoad() -> PageRequest {
        let key: PageRequest.Key = configuration.mode == .offset ? .offset(0) : .cursor(nil)
        let limit = min(configuration.initialLoadSize, firstScreenItemCount ?? configuration.initialLoadSize)
        isFirstLoadSplit = limit < configuration.initialLoadSize
        let request = PageRequest(key: key, limit: limit, direction: .initial, generation: generation)
        initial = .loading(request, failures: 0)
        return request
    }

    /// After a first load cut to the first screen: asks for the rest of
    /// `initialLoadSize` as the next page, whatever the last access — unless
    /// the list ended there. Where the whole first load, landing, would have
    /// asked for the page after it at once (the last access, or the screen,
    /// within `prefetchDistance` of its end), the same request carries that
    /// page too: cutting the first request costs no round trip further down.
    mutating func requestRestOfFirstLoad(received: Int) -> [Action] {
        guard isFirstLoadSplit else { return [] }
        isFirstLoadSplit = false
        guard append.isIdle, let last = pages.last, var next = last.next else { return [] }
        let wholeLoadEnd = leading + configuration.initialLoadSize - 1
        let position = lastAccess ?? (leading + received - 1)
        let carriesNextPage = wantsMore(itemsAhead: wholeLoadEnd - position, 1)
        next.limit = max(1, configuration.initialLoadSize - received) + (carriesNextPage ? configuration.pageSize : 0)
        pages[pages.count - 1].next = next
        let request = PageRequest(key: next.key, limit: next.limit, direction: .append, generation: generation)
        append = .loading(request, failures: 0)
        return [.load(request)]
    }

    mutating func record(index: Int) -> [Action] {
        guard !pages.isEmpty else { return [] }
        // Positions do not move when pages are dropped or placeholders appear.
        lastAccess = index - leadingPlaceholderCount + leading
        return settle()
    }

    /// Starts the append and the prepend the last access calls for.
    mutating func settle() -> [Action] {
        guard initial.isIdle, let last = lastAccess, let firstPage = pages.first, let lastPage = pages.last else {
            return []
        }
        var actions: [Action] = []
        if append.isIdle, let next = lastPage.next, wantsMore(itemsAhead: leading + storage.count - 1 - last, 1) {
            let request = PageRequest(key: next.key, limit: next.limit, direction: .append, generation: generation)
            append = .loading(request, failures: 0)
            actions.append(.load(request))
        }
        if prepend.isIdle, let previous = firstPage.previous, wantsMore(itemsAhead: last - leading, -1) {
            let request = PageRequest(
                key: previous.key, limit: previous.limit, direction: .prepend, generation: generation)
            prepend = .loading(request, failures: 0)
            actions.append(.load(request))
        }
        return actions
    }

    /// Whether an end `itemsAhead` items from the last access should load more.
    /// `sign` is +1 for the end of the list, -1 for its start.
    func wantsMore(itemsAhead: Int, _ sign: Double) -> Bool {
        if itemsAhead < configuration.prefetchDistance { return true }
        guard case .adaptive(let velocity, let latency) = hint, velocity * sign > 0 else { return false }
        // The core's prediction, in items: where the user will be when a page
        // asked for now has loaded (Texture's `remainingTime = remainingDistance /
        // velocity`, turned around).
        let predictor = ArrivalPredictor(margin: configuration.adaptiveMargin)
        return Double(itemsAhead) <= predictor.reach(speed: velocity * sign, loadTime: latency)
    }

    mutating func deduplicated(_ items: [Item]) -> [Item] {
        var kept: [Item] = []
        kept.reserveCapacity(items.count)
        for item in items where ids.insert(item.id).inserted {
            kept.append(item)
        }
        return kept
    }

    func record(for request: PageRequest, page: Page<Item>, kept: Int) -> PageRecord {
        let pageSize = configuration.pageSize
        switch request.key {
        case .offset(let offset):
            let received = page.items.count
            let isLast =
                received < request.limit || received == 0
                || page.totalCount.map { offset + received >= $0 } ?? false
            return PageRecord(
                count: kept,
                next: isLast ? nil : Neighbour(key: .offset(offset + received), limit: pageSize),
                previous: offset == 0
                    ? nil : Neighbour(key: .offset(max(0, offset - pageSize)), limit: min(pageSize, offset))
            )
        case .cursor:
            let isEmpty = page.items.isEmpty
            return PageRecord(
                count: kept,
                next: isEmpty ? nil : page.nextCursor.map { Neighbour(key: .cursor($0), limit: pageSize) },
                previous: isEmpty ? nil : page.previousCursor.map { Neighbour(key: .cursor($0), limit: pageSize) }
            )
        }
    }

    /// Whether the page spanning `positions` may be dropped: not within the
    /// protected distance of the last access (Paging 3's rule).
    func isProtected(_ positions: Range<Int>) -> Bool {
        guard let last = lastAccess else { return false }
        let distance = configuration.protectedDistance
        return positions.lowerBound <= last + distance && positions.upperBound > last - distance
    }

    /// Drops pages at one end while over `maxSize`, cancelling the load at that
    /// end: it would no longer be adjacent.
    mutating func dropPages(fromFront: Bool) -> [Action] {
        guard let maxSize = configuration.maxSize else { return [] }
        var actions: [Action] = []
        while storage.count > maxSize, pages.count > 1 {
            let page = fromFront ? pages.first! : pages.last!
            let start = fromFront ? leading : leading + storage.count - page.count
            guard !isProtected(start..<(start + page.count)) else { break }
            let listStart = start - leading + leadingPlaceholderCount
            actions.append(.dropped(listStart..<(listStart + page.count)))
            if fromFront {
                for item in storage.prefix(page.count) { ids.remove(item.id) }
                storage.removeFirst(page.count)
                pages.removeFirst()
                leading += page.count
                if let request = prepend.inFlight { actions.append(.cancel(request)) }
                prepend = .idle
            } else {
                for item in storage.suffix(page.count) { ids.remove(item.id) }
                storage.removeLast(page.count)
                pages.removeLast()
                if let request = append.inFlight { actions.append(.cancel(request)) }
                append = .idle
            }
        }
        return actions
    }

    // MARK: Invariants

    /// Verifies every invariant by brute force, stopping the program with a
    /// description of the first one broken.
    /// - Complexity: O(n) in the loaded items.
    package func checkInvariants() {
        precondition(pages.reduce(0) { $0 + $1.count } == storage.count, "pages do not add up to the items")
        precondition(ids.count == storage.count, "ids and items differ in number")
        precondition(Set(storage.map(\.id)) == ids, "ids do not match the items")
        precondition(leading >= 0, "negative leading position \(leading)")
        switch initial {
        case .loading, .backingOff:
            precondition(append.isIdle && prepend.isIdle, "append or prepend active during the initial load")
        case .idle, .failed:
            break
        }
        for (slot, direction) in [(initial, PageRequest.Direction.initial), (append, .append), (prepend, .prepend)] {
            if let request = slot.request {
                precondition(request.direction == direction, "\(request) in the \(direction) slot")
                precondition(request.generation == generation, "\(request) from an old generation")
            }
        }
        if let first = pages.first, first.previous == nil {
            precondition(prepend.isIdle, "a prepend past the start of the list")
        }
        if let last = pages.last, last.next == nil {
            precondition(append.isIdle, "an append past the end of the list")
        }
    }
}
