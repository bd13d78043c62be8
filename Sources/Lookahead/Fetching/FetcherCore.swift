import DequeModule

/// What an interest registered through ``AsyncFetcher`` or ``Prefetcher``
/// gets back when it ends.
package enum FetchPayload<Value: Sendable>: Sendable {
    /// A `fetchAsync` display request: called exactly once.
    case completion(@Sendable (Result<Value, any Error>) -> Void)
    /// An `await value(for:)` caller.
    case continuation(token: UInt64, CheckedContinuation<Value, any Error>)
    /// A key prefetched by the prefetcher whose group has this index.
    case prefetch(group: Int)
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
final class FetcherCore<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    typealias Scheduler = FetchScheduler<Key, FetchPayload<Value>>

    struct Job: Sendable {
        let id: Scheduler.LoadID
        let key: Key
    }

    enum TokenState {
        case awaitingRegistration
        case registered(Scheduler.InterestID)
        case cancelled
    }

    /// The bookkeeping of one ``Prefetcher``, kept here so that one lock covers
    /// the prefetcher's keys and the loads they share with everyone else.
    struct PrefetcherBook {
        var interests: [Key: Scheduler.InterestID] = [:]
        var completed = 0
        var failed = 0
        var skipped = 0
        var didComplete: (@Sendable () -> Void)?
    }

    struct State {
        var scheduler: Scheduler
        /// Started loads no worker has taken yet (at most `maxConcurrentLoads`).
        var ready: Deque<Job> = []
        var idleWorkers: [(id: Int, continuation: CheckedContinuation<Job?, Never>)] = []
        var workerCount = 0
        var nextWorkerID = 0
        var workerTasks: [Int: Task<Void, Never>] = [:]
        var liveWorkers: Set<Int> = []
        /// Which worker runs which load (by load serial).
        var executing: [UInt64: Int] = [:]
        /// Workers whose load was cancelled: they take no further work.
        var doomedWorkers: Set<Int> = []
        var tokens: [UInt64: TokenState] = [:]
        var nextToken: UInt64 = 0
        var prefetchers: [Int: PrefetcherBook] = [:]
        var deliveriesInProgress = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        var cacheHits = 0
        var isShutDown = false

        var isIdle: Bool {
            scheduler.isIdle && ready.isEmpty && executing.isEmpty && deliveriesInProgress == 0
        }
    }

    /// Side effects decided under the lock and performed after it is released.
    struct Effects {
        var deliveries: [(Result<Value, any Error>, [FetchPayload<Value>])] = []
        var notifications: [@Sendable () -> Void] = []
        var resumedWorkers: [(CheckedContinuation<Job?, Never>, Job?)] = []
        var spawnedWorkers: [(id: Int, job: Job)] = []
        var cancelledTasks: [Task<Void, Never>] = []
        var retries: [(Scheduler.LoadID, Duration)] = []
        var idleWaiters: [CheckedContinuation<Void, Never>] = []

        var isEmpty: Bool {
            deliveries.isEmpty && notifications.isEmpty && resumedWorkers.isEmpty && spawnedWorkers.isEmpty
                && cancelledTasks.isEmpty && retries.isEmpty && idleWaiters.isEmpty
        }
    }

    let state: LockedValue<State>
    let memoryCache: MemoryCache<Key, Value>
    let load: @Sendable (Key) async throws -> Value
    let sleep: @Sendable (Duration) async throws -> Void
    let isTransient: @Sendable (any Error) -> Bool

    init(
        maxConcurrentLoads: Int,
        retryPolicy: RetryPolicy,
        memoryCache: MemoryCache<Key, Value>,
        sleep: @escaping @Sendable (Duration) async throws -> Void,
        isTransient: @escaping @Sendable (any Error) -> Bool,
        load: @escaping @Sendable (Key) async throws -> Value
    ) {
        self.state = LockedValue(
            State(scheduler: Scheduler(maxConcurrentLoads: maxConcurrentLoads, retryPolicy: retryPolicy)))
        self.memoryCache = memoryCache
        self.sleep = sleep
        self.isTransient = isTransient
        self.load = load
    }

    // MARK: Running state changes

    /// Runs `body` under the lock, then performs the effects it and the
    /// scheduler's resulting actions produced.
    func update<Result>(_ body: (inout State, inout Effects) -> Result) -> Result {
        var effects = Effects()
        let result = state.withLock { state in
            let result = body(&state, &effects)
            state.drainActions(into: &effects)
            state.finishUpdate(into: &effects)
            return result
        }
        if !effects.isEmpty { perform(effects) }
        return result
    }

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
                switch payload {
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
            // Only now is the fetcher idle for `waitUntilIdle`: every completion has returned.
            let batches = effects.deliveries.count
            update { state, _ in state.deliveriesInProgress -= batches }
        }
        for waiter in effects.idleWaiters {
            waiter.resume()
        }
    }

    // MARK: Workers

    enum WorkerStep {
        case job(Job)
        case park
        case exit
    }

    func runWorker(_ id: Int, first: Job) async {
        var job = first
        while true {
            let result: Result<Value, any Error>
            do {
                result = .success(try await load(job.key))
            } catch {
                result = .failure(error)
            }
            guard let next = await finish(job, with: result, worker: id) else { return }
            job = next
        }
    }

    /// Reports a load's outcome and returns the worker's next job, or `nil`
    /// when the worker must exit.
    func finish(_ job: Job, with result: Result<Value, any Error>, worker: Int) async -> Job? {
        let next: WorkerStep = update { state, effects in
            state.executing[job.id.serial] = nil
            state.record(result, of: job, cache: memoryCache, isTransient: isTransient, into: &effects)
            state.drainActions(into: &effects)
            if state.doomedWorkers.remove(worker) != nil || state.isShutDown {
                state.retire(worker, into: &effects)
                return .exit
            }
            if let next = state.ready.popFirst() {
                state.executing[next.id.serial] = worker
                return .job(next)
            }
            return .park
        }
        switch next {
        case .job(let job): return job
        case .exit: return nil
        case .park:
            return await withCheckedContinuation { continuation in
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
    }

    // MARK: Shutting down

    /// Cancels everything: running loads are cancelled, every waiting
    /// completion and caller gets a `CancellationError`, workers exit.
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
    mutating func drainActions(into effects: inout FetcherCore.Effects) {
        while let action = scheduler.nextAction() {
            switch action {
            case .start(let id, let key, _):
                let job = FetcherCore.Job(id: id, key: key)
                if let (worker, continuation) = idleWorkers.popLast() {
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
    mutating func record(
        _ result: Result<Value, any Error>,
        of job: FetcherCore.Job,
        cache: MemoryCache<Key, Value>,
        isTransient: (any Error) -> Bool,
        into effects: inout FetcherCore.Effects
    ) {
        switch result {
        case .success(let value):
            guard let payloads = scheduler.loadDidSucceed(job.id) else { return }
            // Stored under the fetcher's lock, before the load is forgotten, so
            // that a request arriving now finds either the load or the value.
            cache.setValue(value, forKey: job.key)
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
    mutating func collect(
        _ payloads: [FetchPayload<Value>],
        result: Result<Value, any Error>,
        key: Key?,
        into effects: inout FetcherCore.Effects
    ) {
        guard !payloads.isEmpty else { return }
        var needsDelivery = false
        for payload in payloads {
            switch payload {
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
            deliveriesInProgress += 1
            effects.deliveries.append((result, payloads))
        }
    }

    /// A worker leaves the pool.
    mutating func retire(_ worker: Int) {
        workerCount -= 1
        workerTasks[worker] = nil
        liveWorkers.remove(worker)
        doomedWorkers.remove(worker)
    }

    /// A worker leaves the pool; started loads it leaves behind get new workers.
    mutating func retire(_ worker: Int, into effects: inout FetcherCore.Effects) {
        retire(worker)
        guard !isShutDown else { return }
        while workerCount < scheduler.maxConcurrentLoads, let job = ready.popFirst() {
            spawnWorker(for: job, into: &effects)
        }
    }

    mutating func spawnWorker(for job: FetcherCore.Job, into effects: inout FetcherCore.Effects) {
        let worker = nextWorkerID
        nextWorkerID += 1
        workerCount += 1
        liveWorkers.insert(worker)
        executing[job.id.serial] = worker
        effects.spawnedWorkers.append((worker, job))
    }

    /// Hands waiting `waitUntilIdle` callers their wake-up when nothing is left.
    mutating func finishUpdate(into effects: inout FetcherCore.Effects) {
        if !idleWaiters.isEmpty, isIdle {
            effects.idleWaiters.append(contentsOf: idleWaiters)
            idleWaiters.removeAll()
        }
    }
}
