public import DequeModule

/// What an interest registered through ``AsyncFetcher`` or ``Prefetcher``
/// gets back when it ends.
///
/// A class, not an enum: the scheduler stores `FetchPayload?` per interest, and
/// an optional reference is a plain pointer, where an optional multi-payload
/// enum is copied and tested through runtime witness calls on every access.
@usableFromInline
package final class FetchPayload<Value: Sendable>: Sendable {
    @usableFromInline
    enum Kind: Sendable {
        /// A `fetchAsync` display request: called exactly once.
        case completion(@Sendable (Result<Value, any Error>) -> Void)
        /// An `await value(for:)` caller.
        case continuation(token: UInt64, CheckedContinuation<Value, any Error>)
        /// A key prefetched by the prefetcher whose group has this index.
        case prefetch(group: Int)
    }

    @usableFromInline let kind: Kind

    @inlinable
    init(_ kind: Kind) {
        self.kind = kind
    }
}

/// The storage and driver behind ``AsyncFetcher``: holds the ``FetchScheduler``
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

        @inlinable
        init(id: Scheduler.LoadID, key: Key) {
            self.id = id
            self.key = key
        }
    }

    @usableFromInline
    enum TokenState {
        case awaitingRegistration
        case registered(Scheduler.InterestID)
        case cancelled
    }

    /// The bookkeeping of one ``Prefetcher``, kept here so that one lock covers
    /// the prefetcher's keys and the loads they share with everyone else.
    @usableFromInline
    struct PrefetcherBook {
        @usableFromInline var interests: [Key: Scheduler.InterestID] = [:]
        @usableFromInline var completed = 0
        @usableFromInline var failed = 0
        @usableFromInline var skipped = 0
        @usableFromInline var didComplete: (@Sendable () -> Void)?

        @inlinable
        init() {}
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
        /// Workers that found no work and are briefly polling for more before
        /// they park (at most one).
        @usableFromInline var spinningWorkers = 0
        @usableFromInline var tokens: [UInt64: TokenState] = [:]
        @usableFromInline var nextToken: UInt64 = 0
        @usableFromInline var prefetchers: [Int: PrefetcherBook] = [:]
        @usableFromInline var idleWaiters: [CheckedContinuation<Void, Never>] = []
        @usableFromInline var isShutDown = false

        @inlinable
        init(scheduler: Scheduler) {
            self.scheduler = scheduler
        }

        /// Idle but for completions that may still be running (see `deliveriesInProgress`).
        @inlinable var hasNothingToDo: Bool {
            scheduler.isIdle && ready.isEmpty && executing.isEmpty
        }
    }

    /// Side effects decided under the lock and performed after it is released.
    @usableFromInline
    struct Effects {
        @usableFromInline var deliveries: [(Result<Value, any Error>, [FetchPayload<Value>])] = []
        @usableFromInline var notifications: [@Sendable () -> Void] = []
        @usableFromInline var resumedWorkers: [(CheckedContinuation<Job?, Never>, Job?)] = []
        @usableFromInline var spawnedWorkers: [(id: Int, job: Job)] = []
        @usableFromInline var cancelledTasks: [Task<Void, Never>] = []
        @usableFromInline var retries: [(Scheduler.LoadID, Duration)] = []
        @usableFromInline var idleWaiters: [CheckedContinuation<Void, Never>] = []
        @usableFromInline var offersWork = false

        @inlinable
        init() {}

        @inlinable var isEmpty: Bool {
            deliveries.isEmpty && notifications.isEmpty && resumedWorkers.isEmpty && spawnedWorkers.isEmpty
                && cancelledTasks.isEmpty && retries.isEmpty && idleWaiters.isEmpty
        }
    }

    @usableFromInline let state: LockedValue<State>
    @usableFromInline let memoryCache: MemoryCache<Key, Value>
    @usableFromInline let load: @Sendable (Key) async throws -> Value
    @usableFromInline let sleep: @Sendable (Duration) async throws -> Void
    /// Starts a stopwatch on the injected clock; calling the result reads it.
    /// Load durations are measured on it, so a manual clock decides them in tests.
    @usableFromInline let startStopwatch: @Sendable () -> @Sendable () -> Duration
    @usableFromInline let isTransient: @Sendable (any Error) -> Bool
    /// Delivery batches collected under the lock whose completions have not
    /// all returned yet, and whether anybody waits for idle. Behind their own
    /// small lock, so that finishing a delivery does not take the fetcher's;
    /// taken inside the fetcher's lock, never the other way round.
    @usableFromInline let deliveries = LockedValue(DeliveryCount())

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
        effects.idleWaiters.append(contentsOf: state.idleWaiters)
        state.idleWaiters.removeAll()
    }

    /// Returns when the fetcher is idle.
    @inlinable
    func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isIdle = state.withLock { state in
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
                    return true
                }
                state.idleWaiters.append(continuation)
                return false
            }
            if isIdle { continuation.resume() }
        }
    }

    /// The fetcher's observers, by registration number.
    @usableFromInline let observers = LockedValue<(next: Int, handlers: [Int: @Sendable (FetchEvent<Key>) -> Void])>(
        (0, [:]))
    /// Whether any observer is registered: read by every load, under the
    /// observers' own lock, never the fetcher's.
    @usableFromInline var hasObservers: Bool {
        observers.withLock { !$0.handlers.isEmpty }
    }

    /// Registers `handler` for every load attempt's events.
    func observe(_ handler: @escaping @Sendable (FetchEvent<Key>) -> Void) -> FetchObservation {
        let id = observers.withLock { observers in
            let id = observers.next
            observers.next += 1
            observers.handlers[id] = handler
            return id
        }
        return FetchObservation { [weak self] in
            guard let self else { return }
            // The handler is released after the lock: its captures may deinit
            // another observation of this fetcher, which takes the same lock.
            let handler = self.observers.withLock { observers in
                observers.handlers.removeValue(forKey: id)
            }
            withExtendedLifetime(handler) {}
        }
    }

    /// Calls every observer with `event`, outside any lock.
    @usableFromInline
    func emit(_ event: FetchEvent<Key>) {
        let handlers = observers.withLock { Array($0.handlers.values) }
        for handler in handlers { handler(event) }
    }

    /// Set when a job is left in `ready` for the polling worker, so that it
    /// polls a small lock of its own instead of the fetcher's. Taken inside the
    /// fetcher's lock, never the other way round.
    @usableFromInline let workOffered = LockedValue(false)

    @inlinable
    init(
        maxConcurrentLoads: Int,
        retryPolicy: RetryPolicy,
        memoryCache: MemoryCache<Key, Value>,
        sleep: @escaping @Sendable (Duration) async throws -> Void,
        startStopwatch: @escaping @Sendable () -> @Sendable () -> Duration,
        isTransient: @escaping @Sendable (any Error) -> Bool,
        load: @escaping @Sendable (Key) async throws -> Value
    ) {
        self.startStopwatch = startStopwatch
        self.state = LockedValue(
            State(scheduler: Scheduler(maxConcurrentLoads: maxConcurrentLoads, retryPolicy: retryPolicy)))
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
        case registered(FetchRequest)
        /// The value was loaded meanwhile: nothing was registered.
        case cached(Value)
    }

    /// Registers a request for `key` unless its value is cached by now.
    @inlinable
    func register(
        _ key: Key, priority: FetchPriority, payload: FetchPayload<Value>?, delivery: (any CancellableDelivery)?
    ) -> RequestRegistration {
        update { state, _ in
            // Checked again under the lock: a load may have finished meanwhile.
            if let value = memoryCache.valueCountingHit(forKey: key) {
                return .cached(value)
            }
            let id = state.scheduler.addInterest(in: key, priority: priority, payload: payload)
            let interest = FetchInterestHandle(slot: id.slot, generation: id.generation, delivery: delivery)
            return .registered(FetchRequest(owner: self, interest: interest, priority: priority))
        }
    }

    // MARK: Running state changes

    /// Runs `body` under the lock, then performs the effects it and the
    /// scheduler's resulting actions produced.
    @inlinable
    func update<Result>(_ body: (inout State, inout Effects) -> Result) -> Result {
        var effects = Effects()
        let result = state.withLock { state in
            let result = body(&state, &effects)
            state.drainActions(into: &effects)
            if !effects.deliveries.isEmpty {
                let count = effects.deliveries.count
                deliveries.withLock { $0.inProgress += count }
            }
            resumeIdleWaitersIfIdle(&state, into: &effects)
            if effects.offersWork { workOffered.withLock { $0 = true } }
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

    // MARK: Workers

    @usableFromInline
    enum WorkerStep {
        case job(Job)
        case spin
        case park
        case exit
    }

    @inlinable
    func runWorker(_ id: Int, first: Job) async {
        var job = first
        while true {
            let result: Result<Value, any Error>
            if Task.isCancelled {
                // Cancelled between being handed the job and starting it: a
                // loader that never checks for cancellation must not run.
                result = .failure(CancellationError())
            } else if hasObservers {
                result = await observedLoad(job.key)
            } else {
                do {
                    result = .success(try await load(job.key))
                } catch {
                    result = .failure(error)
                }
            }
            guard let next = await finish(job, with: result, worker: id) else { return }
            job = next
        }
    }

    /// Runs the loader for `key`, telling the observers when it starts and how it ended.
    @usableFromInline
    func observedLoad(_ key: Key) async -> Result<Value, any Error> {
        emit(.started(key))
        let elapsed = startStopwatch()
        let result: Result<Value, any Error>
        do {
            result = .success(try await load(key))
        } catch {
            result = .failure(error)
        }
        let duration = elapsed()
        switch result {
        case .success where Task.isCancelled, .failure(is CancellationError):
            emit(.cancelled(key, duration: duration))
        case .success:
            emit(.succeeded(key, duration: duration))
        case .failure(let error):
            emit(.failed(key, error: error, duration: duration))
        }
        return result
    }

    /// Reports a load's outcome and returns the worker's next job, or `nil`
    /// when the worker must exit.
    @inlinable
    func finish(_ job: Job, with result: Result<Value, any Error>, worker: Int) async -> Job? {
        if case .success(let value) = result, !Task.isCancelled {
            // Stored before the load is reported, and outside the fetcher's
            // lock: a request arriving meanwhile finds either the load, still
            // running, or the value. A cancelled load's value is not kept.
            memoryCache.setValue(value, forKey: job.key)
        }
        let next: WorkerStep = update { state, effects in
            state.executing[job.id.serial] = nil
            state.record(result, of: job, isTransient: isTransient, into: &effects)
            state.drainActions(into: &effects)
            if state.doomedWorkers.remove(worker) != nil || state.isShutDown {
                state.retire(worker, into: &effects)
                return .exit
            }
            if let next = state.ready.popFirst() {
                state.executing[next.id.serial] = worker
                return .job(next)
            }
            if state.spinningWorkers == 0 {
                state.spinningWorkers += 1
                return .spin
            }
            return .park
        }
        switch next {
        case .job(let job): return job
        case .exit: return nil
        case .spin:
            if let job = await spin(worker) { return job }
            return await park(worker)
        case .park:
            return await park(worker)
        }
    }

    /// How many times an idle worker yields, looking for work, before it parks.
    @usableFromInline static var spinLimit: Int { 64 }

    /// Polls for work for a short while before parking.
    ///
    /// Why: when loads are quick and requests keep coming, a worker that parks
    /// is woken again microseconds later, and each wake is a futex system call
    /// on the requesting thread plus a context switch. One worker polling
    /// (yielding the thread between polls) takes that work without either.
    /// Only one worker polls at a time, and only for about 64 yields.
    ///
    /// - Returns: the next job, or `nil` when none came; then the worker parks.
    @inlinable
    func spin(_ worker: Int) async -> Job?? {
        for _ in 0..<Self.spinLimit {
            await Task.yield()
            guard workOffered.withLock({ $0 }) else { continue }
            let found: Job?? = state.withLock { state in
                workOffered.withLock { $0 = false }
                if state.isShutDown {
                    state.spinningWorkers -= 1
                    state.retire(worker)
                    return .some(nil)
                }
                guard let next = state.ready.popFirst() else { return .none }
                state.spinningWorkers -= 1
                state.executing[next.id.serial] = worker
                return .some(next)
            }
            if let found { return found }
        }
        state.withLock { $0.spinningWorkers -= 1 }
        return nil
    }

    /// Waits, without holding a thread, until the worker is handed a job (or
    /// `nil`, to exit).
    @inlinable
    func park(_ worker: Int) async -> Job? {
        await withCheckedContinuation { continuation in
            let immediate: Job?? = state.withLock { state in
                if state.isShutDown {
                    state.retire(worker)
                    return .some(nil)
                }
                if let next = state.ready.popFirst() {
                    state.executing[next.id.serial] = worker
                    return .some(next)
                }
                state.idleWorkers.append((worker, continuation))
                return .none
            }
            if let immediate { continuation.resume(returning: immediate) }
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

extension FetcherCore.State {
    /// Performs the scheduler's actions as far as the state goes; the rest is
    /// left in `effects`.
    @inlinable
    mutating func drainActions(into effects: inout FetcherCore.Effects) {
        while let action = scheduler.nextAction() {
            switch action {
            case .start(let id, let key, _):
                let job = FetcherCore.Job(id: id, key: key)
                if spinningWorkers > ready.count {
                    // A polling worker takes it without being woken.
                    ready.append(job)
                    effects.offersWork = true
                } else if let (worker, continuation) = idleWorkers.popLast() {
                    executing[id.serial] = worker
                    effects.resumedWorkers.append((continuation, job))
                } else if workerCount < scheduler.maxConcurrentLoads, !isShutDown {
                    spawnWorker(for: job, into: &effects)
                } else {
                    ready.append(job)
                }
            case .cancel(let id, _):
                if let index = ready.firstIndex(where: { $0.id == id }) {
                    // Never handed to a worker: it never runs.
                    ready.remove(at: index)
                    _ = scheduler.loadDidFail(id, isTransient: false)
                } else if let worker = executing[id.serial] {
                    doomedWorkers.insert(worker)
                    if let task = workerTasks[worker] { effects.cancelledTasks.append(task) }
                }
            case .reprioritize:
                // Task priorities cannot change once a task runs; the order of
                // what has not started is the scheduler's business.
                break
            }
        }
    }

    /// Reports a load's outcome to the scheduler and collects its deliveries.
    @inlinable
    mutating func record(
        _ result: Result<Value, any Error>,
        of job: FetcherCore.Job,
        isTransient: (any Error) -> Bool,
        into effects: inout FetcherCore.Effects
    ) {
        switch result {
        case .success:
            guard let payloads = scheduler.loadDidSucceed(job.id) else { return }
            collect(payloads, result: result, key: job.key, into: &effects)
        case .failure(let error):
            let transient = !(error is CancellationError) && isTransient(error)
            switch scheduler.loadDidFail(job.id, isTransient: transient) {
            case .deliver(let payloads):
                collect(payloads, result: result, key: job.key, into: &effects)
            case .retry(let delay):
                effects.retries.append((job.id, delay))
            case .discarded:
                break
            }
        }
    }

    /// Settles the bookkeeping of ended interests and queues their deliveries.
    @inlinable
    mutating func collect(
        _ payloads: [FetchPayload<Value>],
        result: Result<Value, any Error>,
        key: Key?,
        into effects: inout FetcherCore.Effects
    ) {
        guard !payloads.isEmpty else { return }
        var needsDelivery = false
        for payload in payloads {
            switch payload.kind {
            case .completion:
                needsDelivery = true
            case .continuation(let token, _):
                tokens[token] = nil
                needsDelivery = true
            case .prefetch(let group):
                guard let key, var book = prefetchers[group] else { continue }
                book.interests[key] = nil
                if case .success = result { book.completed += 1 } else { book.failed += 1 }
                if book.interests.isEmpty, let didComplete = book.didComplete {
                    effects.notifications.append(didComplete)
                }
                prefetchers[group] = book
            }
        }
        if needsDelivery {
            effects.deliveries.append((result, payloads))
        }
    }

    /// A worker leaves the pool.
    @inlinable
    mutating func retire(_ worker: Int) {
        workerCount -= 1
        workerTasks[worker] = nil
        liveWorkers.remove(worker)
        doomedWorkers.remove(worker)
    }

    /// A worker leaves the pool; started loads it leaves behind get new workers.
    @inlinable
    mutating func retire(_ worker: Int, into effects: inout FetcherCore.Effects) {
        retire(worker)
        guard !isShutDown else { return }
        while workerCount < scheduler.maxConcurrentLoads, let job = ready.popFirst() {
            spawnWorker(for: job, into: &effects)
        }
    }

    @inlinable
    mutating func spawnWorker(for job: FetcherCore.Job, into effects: inout FetcherCore.Effects) {
        let worker = nextWorkerID
        nextWorkerID += 1
        workerCount += 1
        liveWorkers.insert(worker)
        executing[job.id.serial] = worker
        effects.spawnedWorkers.append((worker, job))
    }

}

extension FetcherCore: FetchRequestOwner {
    @usableFromInline
    func cancelRequest(_ interest: FetchInterestHandle) {
        update { state, effects in
            let id = Scheduler.InterestID(slot: interest.slot, generation: interest.generation)
            // `nil` once the result was handed over: then it stands.
            guard let payload = state.scheduler.withdraw(id) else { return }
            effects.deliveries.append((.failure(CancellationError()), [payload]))
        }
        // A main-actor completion handed its result but not yet run is taken back too.
        interest.delivery?.cancelDelivery()
    }

    @usableFromInline
    func setPriority(_ priority: FetchPriority, of interest: FetchInterestHandle) {
        update { state, _ in
            let id = Scheduler.InterestID(slot: interest.slot, generation: interest.generation)
            state.scheduler.setPriority(priority, of: id)
        }
    }

    @usableFromInline
    func priority(of interest: FetchInterestHandle) -> FetchPriority? {
        state.withLock { state in
            state.scheduler.priority(of: Scheduler.InterestID(slot: interest.slot, generation: interest.generation))
        }
    }
}
