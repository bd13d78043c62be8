public import DequeModule

/// The storage and driver behind ``AsyncFetcher``: holds the `FetchScheduler`
/// under one lock, performs its actions with a pool of worker tasks, and calls
/// completions outside the lock.
///
/// Why a pool and not a `Task` per load: creating and awaiting a task costs
/// about 2 µs here, which would cap a busy fetcher far below what the
/// scheduler can decide. At most `maxConcurrentLoads` workers exist; each runs
/// one load at a time and takes the next started load without a new task. A
/// running load is cancelled by cancelling its worker's task; that worker takes
/// no further work and exits, and a new one is created when needed.
///
/// Every method follows the same shape: mutate the state under the lock,
/// collect side effects into an `Effects` value, release the lock, perform
/// the effects. No user code ever runs with the lock held.
@usableFromInline
final class FetcherCore<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline
    typealias Scheduler = FetchScheduler<Key, FetchPayload<Value>>

    @usableFromInline
    struct Job: Sendable {
        @usableFromInline let id: Scheduler.LoadID
        @usableFromInline let key: Key
        /// What the loader learns about this attempt.
        @usableFromInline let context: LoadContext

        @inlinable
        init(id: Scheduler.LoadID, key: Key, context: LoadContext) {
            self.id = id
            self.key = key
            self.context = context
        }
    }

    @usableFromInline
    enum TokenState {
        case awaitingRegistration
        case registered(Scheduler.InterestID)
        case cancelled
    }

    /// What a ``Prefetcher`` keeps beside its group in the scheduler (which
    /// holds its keys and their outcomes): the keys it skipped and the
    /// closure to call when it has nothing left to do. Kept here so that one
    /// lock covers them and the loads they concern.
    @usableFromInline
    struct PrefetcherBook {
        @usableFromInline let group: Scheduler.GroupID
        @usableFromInline var skipped = 0
        @usableFromInline var didComplete: (@Sendable () -> Void)?

        @inlinable
        init(group: Scheduler.GroupID) { self.group = group }
    }

    @usableFromInline
    struct State {
        @usableFromInline var scheduler: Scheduler
        /// Started loads no worker has taken yet (at most `maxConcurrentLoads`).
        @usableFromInline var ready: Deque<Job> = []
        @usableFromInline var idleWorkers: [(id: Int, continuation: CheckedContinuation<Job?, Never>)] = []
        @usableFromInline var workerCount = 0
        @usableFromInline var nextWorkerID = 0
        @usableFromInline var workerTasks: [Int: Task<Void, Never>] = [:]
        @usableFromInline var liveWorkers: Set<Int> = []
        /// Which worker runs which load (by load serial).
        @usableFromInline var executing: [UInt64: Int] = [:]
        /// Workers whose load was cancelled: they take no further work.
        @usableFromInline var doomedWorkers: Set<Int> = []
        @usableFromInline var tokens: [UInt64: TokenState] = [:]
        @usableFromInline var nextToken: UInt64 = 0
        @usableFromInline var prefetchers: [Int: PrefetcherBook] = [:]
        /// Tasks in `waitUntilIdle`, by a number of their own (a cancelled one leaves by it).
        @usableFromInline var idleWaiters: [(id: Int, continuation: CheckedContinuation<Void, Never>)] = []
        @usableFromInline var nextIdleWaiterID = 0
        @usableFromInline var isShutDown = false
        @usableFromInline var hedges: HedgeBook<Key, FetchPayload<Value>>
        /// Whether the loader takes a ``LoadContext``: only then is each
        /// attempt told apart and its priority followed.
        @usableFromInline var tellsLoaderContext = false
        /// The priority the loader of each running attempt follows, by load
        /// slot and attempt serial (a hedged load runs two).
        @usableFromInline var priorityBoxes: [Int: [(serial: UInt64, box: LoadPriorityBox)]] = [:]

        @inlinable
        init(scheduler: Scheduler, hedging: FetchHedging, hedgesDueSoonAtOnce: Bool) {
            self.scheduler = scheduler
            self.hedges = HedgeBook(policy: hedging, hedgesDueSoonAtOnce: hedgesDueSoonAtOnce)
        }

        /// Idle but for completions that may still be running (see `deliveriesInProgress`).
        @inlinable var hasNothingToDo: Bool {
            scheduler.isIdle && ready.isEmpty && executing.isEmpty
        }
    }

    /// Side effects decided under the lock and performed after it is released.
    @usableFromInline
    struct Effects {
        @usableFromInline var deliveries: [(Result<Value, any Error>, [FetchPayload<Value>])] = [] {
            didSet { isTouched = true }
        }
        @usableFromInline var notifications: [@Sendable () -> Void] = [] { didSet { isTouched = true } }
        @usableFromInline var resumedWorkers: [(CheckedContinuation<Job?, Never>, Job?)] = [] {
            didSet { isTouched = true }
        }
        @usableFromInline var spawnedWorkers: [(id: Int, job: Job)] = [] { didSet { isTouched = true } }
        @usableFromInline var cancelledTasks: [Task<Void, Never>] = [] { didSet { isTouched = true } }
        @usableFromInline var retries: [(Scheduler.LoadID, Duration)] = [] { didSet { isTouched = true } }
        @usableFromInline var idleWaiters: [CheckedContinuation<Void, Never>] = [] { didSet { isTouched = true } }
        /// Display attempts to hedge once this long has passed (``FetchHedging``).
        @usableFromInline var hedgeTimers: [(Scheduler.LoadID, Duration)] = [] { didSet { isTouched = true } }
        /// Events decided under the lock (hedges), told to observers after it.
        @usableFromInline var events: [FetchEvent<Key>] = [] { didSet { isTouched = true } }
        /// Running attempts' new priorities, told to their loaders after it.
        @usableFromInline var priorityChanges: [(LoadPriorityBox, FetchPriority)] = [] { didSet { isTouched = true } }
        /// Attempts that ended: their loaders hear nothing more.
        @usableFromInline var endedAttempts: [LoadPriorityBox] = [] { didSet { isTouched = true } }

        /// Whether any list was changed: read instead of the lists, whose
        /// element types are generic, so that an update with nothing to do
        /// (most of them) instantiates no metadata to find out.
        @usableFromInline var isTouched = false

        @inlinable
        init() {}

        @inlinable var isEmpty: Bool { !isTouched }
    }

    @usableFromInline let state: LockedValue<State>
    @usableFromInline let memoryCache: MemoryCache<Key, Value>
    @usableFromInline let load: @Sendable (Key, LoadContext) async throws -> Value
    @usableFromInline let sleep: @Sendable (Duration) async throws -> Void
    /// Starts a stopwatch on the injected clock; calling the result reads it.
    /// Load durations are measured on it, so a manual clock decides them in tests.
    @usableFromInline let startStopwatch: @Sendable () -> @Sendable () -> Duration
    @usableFromInline let isTransient: @Sendable (any Error) -> Bool
    /// Whether workers time their loads for the hedging threshold (`afterP90`).
    @usableFromInline let timesLoads: Bool
    /// The time since the fetcher was made, on the injected clock: the
    /// timeline deadlines are placed on in the scheduler.
    @usableFromInline let timeline: @Sendable () -> Duration
    /// Delivery batches collected under the lock whose completions have not
    /// all returned yet, and whether anybody waits for idle. Behind their own
    /// small lock, so that finishing a delivery does not take the fetcher's;
    /// taken inside the fetcher's lock, never the other way round.
    @usableFromInline let deliveries = LockedValue(DeliveryCount())
    /// Copied to start each update's effects: in code not specialized for
    /// the key and value, making eleven empty arrays looks up each one's type.
    /// Immutable and empty, so no continuation or task in it is ever shared.
    @usableFromInline nonisolated(unsafe) let noEffects = Effects()

    @usableFromInline
    struct DeliveryCount {
        @usableFromInline var inProgress = 0
        /// Set while a `waitUntilIdle` caller waits, so that the delivery that
        /// brings `inProgress` to zero wakes it.
        @usableFromInline var hasIdleWaiters = false

        @inlinable
        init() {}
    }

    /// Whether nothing is pending, running, backing off or being delivered.
    @inlinable
    func isIdle(_ state: State) -> Bool {
        state.hasNothingToDo && deliveries.withLock { $0.inProgress } == 0
    }

    /// Hands `waitUntilIdle` callers their wake-up when nothing is left.
    @inlinable
    func resumeIdleWaitersIfIdle(_ state: inout State, into effects: inout Effects) {
        guard !state.idleWaiters.isEmpty, state.hasNothingToDo else { return }
        let isIdle = deliveries.withLock { deliveries in
            guard deliveries.inProgress == 0 else { return false }
            deliveries.hasIdleWaiters = false
            return true
        }
        guard isIdle else { return }
        effects.idleWaiters.append(contentsOf: state.idleWaiters.lazy.map(\.continuation))
        state.idleWaiters.removeAll()
    }

    /// Returns when the fetcher is idle, or at once when the calling task is
    /// cancelled (the loads go on).
    @inlinable
    func waitUntilIdle() async {
        await state.waitCancellably { state, continuation in
            // Announce the waiter as the delivery count is read: a delivery
            // finishing later sees the flag.
            let deliveriesDone = deliveries.withLock { deliveries in
                deliveries.hasIdleWaiters = true
                return deliveries.inProgress == 0
            }
            if state.hasNothingToDo, deliveriesDone {
                if state.idleWaiters.isEmpty {
                    deliveries.withLock { $0.hasIdleWaiters = false }
                }
                return nil
            }
            state.nextIdleWaiterID += 1
            state.idleWaiters.append((state.nextIdleWaiterID, continuation))
            return state.nextIdleWaiterID
        } remove: { state, id in
            state.idleWaiters.firstIndex { $0.id == id }.map { state.idleWaiters.remove(at: $0).continuation }
        }
    }

    /// The fetcher's observers, by registration number.
    @usableFromInline let observers = LockedValue<(next: Int, handlers: [Int: @Sendable (FetchEvent<Key>) -> Void])>(
        (0, [:]))

    @inlinable
    init(
        maxConcurrentLoads: Int,
        retryPolicy: RetryPolicy,
        memoryCache: MemoryCache<Key, Value>,
        sleep: @escaping @Sendable (Duration) async throws -> Void,
        startStopwatch: @escaping @Sendable () -> @Sendable () -> Duration,
        isTransient: @escaping @Sendable (any Error) -> Bool,
        hedging: FetchHedging = .off,
        hedgesDueSoonAtOnce: Bool = true,
        tellsLoaderContext: Bool = false,
        load: @escaping @Sendable (Key, LoadContext) async throws -> Value
    ) {
        self.startStopwatch = startStopwatch
        self.timeline = startStopwatch()
        self.timesLoads = hedging.followsP90
        self.state = LockedValue(
            State(
                scheduler: Scheduler(maxConcurrentLoads: maxConcurrentLoads, retryPolicy: retryPolicy),
                hedging: hedging, hedgesDueSoonAtOnce: hedgesDueSoonAtOnce))
        self.state.withLock { $0.tellsLoaderContext = tellsLoaderContext }
        self.memoryCache = memoryCache
        self.sleep = sleep
        self.isTransient = isTransient
        self.load = load
    }

    /// Where main-actor completions wait for the main actor, in order.
    @usableFromInline let mainActorQueue = MainActorDeliveryQueue()

    // MARK: Display requests

    @usableFromInline
    enum RequestRegistration {
        case registered(FetchTask)
        /// The value was loaded meanwhile: nothing was registered.
        case cached(Value)
    }

    /// Registers a request for `key` unless its value is cached by now.
    @inlinable
    func register(
        _ key: Key,
        priority: FetchPriority,
        deadline: Duration? = nil,
        payload: FetchPayload<Value>?,
        delivery: (any CancellableDelivery)?
    ) -> RequestRegistration {
        // Read before the lock: the clock is the user's.
        let due = deadline.map { timeline() + $0 }
        return update { state, _ in
            // Checked again under the lock: a load may have finished meanwhile.
            if let value = memoryCache.valueCountingHit(forKey: key) {
                return .cached(value)
            }
            let id = state.scheduler.addInterest(in: key, priority: priority, deadline: due, payload: payload)
            let interest = FetchInterestHandle(id: id, delivery: delivery)
            return .registered(FetchTask(owner: self, interest: interest, priority: priority))
        }
    }

    // MARK: Running state changes

    /// Runs `body` under the lock, then performs the effects it and the
    /// scheduler's resulting actions produced.
    @inlinable
    func update<Result>(_ body: (inout State, inout Effects) -> Result) -> Result {
        var effects = noEffects
        let result = state.withLock { state in
            let result = body(&state, &effects)
            state.drainActions(into: &effects)
            if !effects.deliveries.isEmpty {
                let count = effects.deliveries.count
                deliveries.withLock { $0.inProgress += count }
            }
            resumeIdleWaitersIfIdle(&state, into: &effects)
            return result
        }
        if !effects.isEmpty { perform(effects) }
        return result
    }

    @inlinable
    func perform(_ effects: Effects) {
        for task in effects.cancelledTasks {
            task.cancel()
        }
        for (id, job) in effects.spawnedWorkers {
            let task = Task { await self.runWorker(id, first: job) }
            // The worker may already have been doomed, or even have exited,
            // before its handle could be recorded.
            let cancelNow = state.withLock { state in
                guard state.liveWorkers.contains(id) else { return false }
                if state.doomedWorkers.contains(id) { return true }
                state.workerTasks[id] = task
                return false
            }
            if cancelNow { task.cancel() }
        }
        for (continuation, job) in effects.resumedWorkers {
            continuation.resume(returning: job)
        }
        for (id, delay) in effects.retries {
            Task {
                try? await self.sleep(delay)
                self.update { state, _ in state.scheduler.retryTimerFired(id) }
            }
        }
        for (id, threshold) in effects.hedgeTimers {
            Task {
                try? await self.sleep(threshold)
                // Read before the lock: the clock is the user's.
                let now = self.timeline()
                self.update { state, _ in state.hedgeTimerFired(id, now: now) }
            }
        }
        for event in effects.events {
            emit(event)
        }
        for (box, priority) in effects.priorityChanges {
            box.update(priority)
        }
        for box in effects.endedAttempts {
            box.end()
        }
        for (result, payloads) in effects.deliveries {
            for payload in payloads {
                switch payload.kind {
                case .completion(let completion): completion(result)
                case .continuation(_, let continuation): continuation.resume(with: result)
                case .prefetch: break
                }
            }
        }
        for notification in effects.notifications {
            notification()
        }
        if !effects.deliveries.isEmpty {
            // Only now may the fetcher count as idle: every completion has
            // returned. The lock is taken only when somebody waits for idle.
            let count = effects.deliveries.count
            let wakesWaiters = deliveries.withLock { deliveries in
                deliveries.inProgress -= count
                return deliveries.inProgress == 0 && deliveries.hasIdleWaiters
            }
            if wakesWaiters {
                update { _, _ in }
            }
        }
        for waiter in effects.idleWaiters {
            waiter.resume()
        }
    }

    // MARK: Shutting down

    /// Cancels everything: running loads are cancelled, every waiting
    /// completion and caller gets a `CancellationError`, workers exit.
    @inlinable
    func shutDown() {
        update { state, effects in
            state.isShutDown = true
            let payloads = state.scheduler.withdrawAllInterests()
            state.collect(payloads, result: .failure(CancellationError()), key: nil, into: &effects)
            for (id, continuation) in state.idleWorkers {
                effects.resumedWorkers.append((continuation, nil))
                state.retire(id)
            }
            state.idleWorkers.removeAll()
        }
    }
}
