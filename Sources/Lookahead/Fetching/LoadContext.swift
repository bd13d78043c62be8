// What a loader learns about the load it runs: its priority (and its
// changes while it runs), whether it is a prefetch, and which attempt it is.
// The URLSession loader maps these to URLSessionTask.priority and Low Data Mode.

/// What a loader learns about one attempt of a load.
///
/// Passed to a loader made with `AsyncFetcher(…, load: { key, context in … })`
/// (the key-only form ignores it). A URLSession loader sets
/// `URLSessionTask.priority` from ``priority`` and follows its changes
/// (``onPriorityChange(_:)``), and leaves a prefetch off a constrained
/// network (Low Data Mode).
public struct LoadContext: Sendable {
    /// Whether the load is a prefetch: when the attempt started, no display
    /// request and no caller awaiting the value waited for it (only prefetches).
    public let isPrefetch: Bool
    /// Which attempt this is: 1 for the first, 2 after one failure, and so on.
    /// A hedge has the number of the attempt it races.
    public let attempt: Int
    /// Whether this attempt is a hedge: a second attempt racing a slow first
    /// one (``FetchHedging``); the one that loses is cancelled.
    public let isHedge: Bool
    @usableFromInline let box: LoadPriorityBox?
    @usableFromInline let initialPriority: FetchPriority

    @usableFromInline
    init(priority: FetchPriority, isPrefetch: Bool, attempt: Int, isHedge: Bool, box: LoadPriorityBox?) {
        self.initialPriority = priority
        self.isPrefetch = isPrefetch
        self.attempt = attempt
        self.isHedge = isHedge
        self.box = box
    }

    /// A context for a loader called outside a fetcher (a test, a wrapper).
    @inlinable
    public init(priority: FetchPriority = .normal, isPrefetch: Bool = false, attempt: Int = 1, isHedge: Bool = false) {
        self.init(priority: priority, isPrefetch: isPrefetch, attempt: attempt, isHedge: isHedge, box: nil)
    }

    /// The load's priority now: the highest of the requests that want it.
    /// It moves while the load runs as requests join, leave or are
    /// re-prioritised (a cell a fling carries away lowers its request).
    public var priority: FetchPriority { box?.priority ?? initialPriority }

    /// Calls `handler` with each new priority of the load while it runs, on
    /// an arbitrary thread, never under a lock of the fetcher's. One handler
    /// per attempt: a second call replaces the first. Nothing is called once
    /// the attempt has ended.
    public func onPriorityChange(_ handler: @escaping @Sendable (FetchPriority) -> Void) {
        box?.setHandler(handler)
    }
}

/// The priority of a running attempt, which the fetcher updates and the
/// loader reads or listens to.
@usableFromInline
final class LoadPriorityBox: Sendable {
    private struct State {
        var priority: FetchPriority
        var handler: (@Sendable (FetchPriority) -> Void)?
        var isEnded = false
    }

    private let state: LockedValue<State>

    @usableFromInline
    init(priority: FetchPriority) {
        state = LockedValue(State(priority: priority))
    }

    var priority: FetchPriority { state.withLock { $0.priority } }

    func setHandler(_ handler: @escaping @Sendable (FetchPriority) -> Void) {
        // The replaced handler is released after the lock (its captures are the app's).
        let replaced = state.withLock { state -> (@Sendable (FetchPriority) -> Void)? in
            guard !state.isEnded else { return handler }
            defer { state.handler = handler }
            return state.handler
        }
        _ = replaced
    }

    /// The fetcher moved the load to `priority`: the handler hears it, outside the lock.
    @usableFromInline
    func update(_ priority: FetchPriority) {
        let handler = state.withLock { state -> (@Sendable (FetchPriority) -> Void)? in
            guard !state.isEnded, state.priority != priority else { return nil }
            state.priority = priority
            return state.handler
        }
        handler?(priority)
    }

    /// The attempt ended: no handler is called any more, and it is released.
    @usableFromInline
    func end() {
        let released = state.withLock { state -> (@Sendable (FetchPriority) -> Void)? in
            state.isEnded = true
            defer { state.handler = nil }
            return state.handler
        }
        _ = released
    }
}
