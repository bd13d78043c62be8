public import DequeModule

/// How ``FetcherCore`` drives its `FetchScheduler`: the scheduler's actions
/// performed on the worker pool, load outcomes reported back, ended
/// interests turned into deliveries; and the requests' handle calls.
extension FetcherCore.State {
    /// Performs the scheduler's actions as far as the state goes; the rest is
    /// left in `effects`.
    @inlinable
    mutating func drainActions(into effects: inout FetcherCore.Effects) {
        while let action = scheduler.nextAction() {
            switch action {
            case .start(let id, let key, let priority):
                attemptStarted(id, key: key, into: &effects)
                let job = FetcherCore.Job(id: id, key: key, context: context(of: id, at: priority))
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
                    attemptEnded(id, into: &effects)
                    _ = forgetAttempt(id, succeeded: false)
                    _ = scheduler.loadDidFail(id, isTransient: false)
                } else if let worker = executing[id.serial] {
                    doomedWorkers.insert(worker)
                    if let task = workerTasks[worker] { effects.cancelledTasks.append(task) }
                }
            case .reprioritize(let id, let key, let priority):
                for attempt in priorityBoxes[id.slot] ?? [] { effects.priorityChanges.append((attempt.box, priority)) }
                // Task priorities cannot change once a task runs; the order of
                // what has not started is the scheduler's business. A load
                // raised to a display priority becomes one to hedge.
                if hedges.policy.isEnabled, HedgeBook<Key, FetchPayload<Value>>.isDisplay(priority) {
                    watchForHedge(id, key: key, into: &effects)
                }
            }
        }
    }

    /// What the loader of attempt `id`, started at `priority`, learns; its
    /// priority followed from now on when the loader takes a context.
    @inlinable
    mutating func context(of id: FetcherCore.Scheduler.LoadID, at priority: FetchPriority) -> LoadContext {
        guard tellsLoaderContext else { return LoadContext(priority: priority) }
        let attempt = scheduler.attempt(id) { payload in
            if case .prefetch = payload.kind { return false }
            return !payload.isOnBehalfOfPrefetch
        }
        let box = LoadPriorityBox(priority: priority)
        priorityBoxes[id.slot, default: []].append((id.serial, box))
        return LoadContext(
            priority: priority, isPrefetch: !attempt.isWaited, attempt: attempt.number, isHedge: attempt.isHedge,
            box: box)
    }

    /// Attempt `id` ended (or will never run): its loader hears nothing more.
    @inlinable
    mutating func attemptEnded(_ id: FetcherCore.Scheduler.LoadID, into effects: inout FetcherCore.Effects) {
        guard tellsLoaderContext, var attempts = priorityBoxes[id.slot],
            let index = attempts.firstIndex(where: { $0.serial == id.serial })
        else { return }
        effects.endedAttempts.append(attempts.remove(at: index).box)
        priorityBoxes[id.slot] = attempts.isEmpty ? nil : attempts
    }

    /// Reports a load's outcome to the scheduler and collects its deliveries.
    @inlinable
    mutating func record(
        _ result: Result<Value, any Error>,
        of job: FetcherCore.Job,
        duration: Duration? = nil,
        isTransient: (any Error) -> Bool,
        into effects: inout FetcherCore.Effects
    ) {
        let succeeded = if case .success = result { true } else { false }
        attemptEnded(job.id, into: &effects)
        let wasHedge = forgetAttempt(job.id, succeeded: succeeded)
        switch result {
        case .success:
            guard let payloads = scheduler.loadDidSucceed(job.id) else { return }
            if let duration, let timed = hedges.recordDuration(duration) {
                // The first threshold: the attempts that started without one are timed from now.
                for id in timed.attempts { effects.hedgeTimers.append((id, timed.threshold)) }
            }
            if wasHedge { effects.events.append(.hedgeWon(job.key)) }
            collect(payloads, result: result, key: job.key, into: &effects)
        case .failure(let error):
            // A server's `Retry-After` longer than the policy would ever wait: reported, not retried.
            let retryAfter = (error as? any TransientError)?.retryAfter
            let transient =
                !(error is CancellationError) && isTransient(error)
                && (retryAfter ?? .zero) <= scheduler.retryPolicy.maxDelay
            switch scheduler.loadDidFail(job.id, isTransient: transient) {
            case .deliver(let payloads):
                collect(payloads, result: result, key: job.key, into: &effects)
            case .retry(let delay):
                effects.retries.append((job.id, max(delay, retryAfter ?? .zero)))
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
                // The scheduler's group has counted the outcome and dropped the key.
                guard key != nil, let book = prefetchers[group] else { continue }
                if scheduler.keyCount(in: book.group) == 0, let didComplete = book.didComplete {
                    effects.notifications.append(didComplete)
                }
            }
        }
        if needsDelivery {
            effects.deliveries.append((result, payloads))
        }
    }
}

extension FetcherCore: FetchTaskOwner {
    @usableFromInline
    func cancelRequest(_ interest: FetchInterestHandle) {
        update { state, effects in
            // `nil` once the result was handed over: then it stands.
            guard let payload = state.scheduler.withdraw(interest.id) else { return }
            effects.deliveries.append((.failure(CancellationError()), [payload]))
        }
        // A main-actor completion handed its result but not yet run is taken back too.
        interest.delivery?.cancelDelivery()
    }

    @usableFromInline
    func setPriority(_ priority: FetchPriority, of interest: FetchInterestHandle) {
        update { state, _ in
            state.scheduler.setPriority(priority, of: interest.id)
        }
    }

    @usableFromInline
    func setDeadline(_ deadline: Duration?, of interest: FetchInterestHandle) {
        // Read before the lock: the clock is the user's.
        let now = timeline()
        let due = deadline.map { now + $0 }
        update { state, effects in
            state.scheduler.setDeadline(due, of: interest.id)
            // A prefetch about to be shown whose load runs slow gets its hedge.
            if due != nil, state.hedges.policy.isEnabled, let key = state.scheduler.key(of: interest.id) {
                state.keyWasReDated(key, now: now)
            }
        }
    }

    @usableFromInline
    func priority(of interest: FetchInterestHandle) -> FetchPriority? {
        state.withLock { state in
            state.scheduler.priority(of: interest.id)
        }
    }
}
