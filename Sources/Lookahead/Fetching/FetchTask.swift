/// A handle on one request made with ``AsyncFetcher/prefetch(_:priority:deadline:)`` or ``AsyncFetcher/requestDisplay(of:priority:completion:)``:
/// withdraw it when its cell is reused, lower it when a fling carries the
/// cell away.
///
/// What Nuke's `ImageTask` and SDWebImage's operation token are to a cell:
/// without it, a cell that scrolls away keeps its `.high` request until the
/// load completes, so one fling queues hundreds of display loads ahead of the
/// cells the user stops on.
///
/// A request is one interest in its key's load, which may be shared with
/// other interests (other cells, prefetches, `await value(for:)` callers).
/// Cancelling or re-prioritising it touches only this interest: the load
/// stops only when no interest is left, and runs at the highest priority of
/// those that remain.
///
/// A value type holding a reference to the fetcher's storage: copies are the
/// same request, and storing one in a cell costs no allocation.
public struct FetchTask: Sendable {
    @usableFromInline let owner: (any FetchTaskOwner)?
    @usableFromInline let interest: FetchInterestHandle
    @usableFromInline let requestedPriority: FetchPriority

    /// A request that has already ended (answered from the cache).
    @inlinable
    init(completedWith priority: FetchPriority) {
        owner = nil
        interest = FetchInterestHandle(id: FetchInterestID(slot: -1, generation: 0), delivery: nil)
        requestedPriority = priority
    }

    @inlinable
    init(owner: any FetchTaskOwner, interest: FetchInterestHandle, priority: FetchPriority) {
        self.owner = owner
        self.interest = interest
        requestedPriority = priority
    }

    /// Withdraws the request.
    ///
    /// If its completion has not been handed its result yet, it is called —
    /// once, as always — with a `CancellationError`, outside any lock (for a
    /// main-actor request, later on the main actor). Once the result was
    /// handed over, or after an earlier `cancel()`, this does nothing. The
    /// load stops only if no other interest wants it.
    ///
    /// - Complexity: O(1) amortized.
    @inlinable
    public func cancel() {
        owner?.cancelRequest(interest)
    }

    /// Whether the request is still waiting for its result.
    @inlinable
    public var isPending: Bool {
        owner?.priority(of: interest) != nil
    }

    /// The priority of the request while it waits; its load runs at the
    /// highest priority of its interests. Raising it moves a queued load ahead
    /// of lower ones, lowering it (a cell a fling carries away) lets later,
    /// more urgent loads start first; a load already running keeps running.
    ///
    /// Once the request has ended, reads return the priority it was made
    /// with and writes do nothing.
    ///
    /// - Complexity: O(1) amortized.
    @inlinable
    public var priority: FetchPriority {
        get { owner?.priority(of: interest) ?? requestedPriority }
        nonmutating set { owner?.setPriority(newValue, of: interest) }
    }

    /// Changes when the request's item is predicted to appear: how long from
    /// now, on the fetcher's clock (negative: overdue), or `nil` for no
    /// deadline. Within a priority, queued loads start earliest deadline
    /// first; a load already running keeps running. Does nothing once the
    /// request has ended.
    ///
    /// - Complexity: O(log n) plus the requests for its key.
    @inlinable
    public func setDeadline(_ deadline: Duration?) {
        owner?.setDeadline(deadline, of: interest)
    }
}

/// Identifies the interest behind a ``FetchTask`` without naming the
/// fetcher's key and value types.
@usableFromInline
struct FetchInterestHandle: Sendable {
    /// The interest in the fetcher's scheduler.
    @usableFromInline let id: FetchInterestID
    /// Set for a main-actor request: where its completion waits for the main actor.
    @usableFromInline let delivery: (any CancellableDelivery)?

    @inlinable
    init(id: FetchInterestID, delivery: (any CancellableDelivery)?) {
        self.id = id
        self.delivery = delivery
    }
}

/// What a ``FetchTask`` asks of the fetcher that made it.
@usableFromInline
protocol FetchTaskOwner: AnyObject, Sendable {
    func cancelRequest(_ interest: FetchInterestHandle)
    func setPriority(_ priority: FetchPriority, of interest: FetchInterestHandle)
    func priority(of interest: FetchInterestHandle) -> FetchPriority?
    func setDeadline(_ deadline: Duration?, of interest: FetchInterestHandle)
}

/// A completion waiting to be delivered that a cancellation can still take back.
@usableFromInline
protocol CancellableDelivery: AnyObject, Sendable {
    /// Takes the completion back, if it has not run, and has it called with a `CancellationError`.
    func cancelDelivery()
}
