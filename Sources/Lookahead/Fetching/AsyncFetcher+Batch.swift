// A coordinator frame's requests performed under one acquisition of the
// fetcher's lock: what would otherwise be a lock round trip (and a clock
// read) per prefetch, withdrawal, re-date and re-rank on the main thread.

/// A request of a batch's: one made before, or one of the batch's own prefetches.
package enum FetchBatchRequest: Sendable {
    case task(FetchTask)
    /// The prefetch at this index of the batch's ``FetchBatch/prefetches``.
    case prefetch(Int)
}

/// What a coordinator frame does to requests it made: no keys, so that
/// building it is the same code whatever the fetcher's key type.
package struct FetchRequestChanges: Sendable {
    /// Prefetches whose item came on screen: stepped down to `.low`, never up.
    package var consumed: [FetchTask] = []
    /// Requests withdrawn (prefetches; a display request's completion gets
    /// `CancellationError`).
    package var withdrawn: [FetchTask] = []
    /// Requests re-dated: when each item is predicted to be needed, on the
    /// fetcher's timeline (`AsyncFetcher.timelineNow`).
    package var deadlines: [(request: FetchBatchRequest, deadline: Duration)] = []
    /// Requests whose deadline the policy predicted again, changed or not:
    /// with hedging on, one due soon and loading gets its hedge.
    package var predicted: [FetchBatchRequest] = []
    /// Requests moved to another priority.
    package var priorities: [(task: FetchTask, priority: FetchPriority)] = []
    /// Consumed prefetches their coordinator forgot (their item out of
    /// reach): withdrawn if their load has not started, left to finish if
    /// it is loading (`FetchScheduler.letGo(_:)`).
    package var forgotten: [FetchTask] = []
    /// Requests withdrawn after the batch's prefetches are made: what a
    /// reload let go of, whose keys the new window may ask for again — a
    /// load both want goes on rather than stopping and starting over.
    package var released: [FetchTask] = []

    package init() {}

    /// Whether there is nothing to perform.
    package var isEmpty: Bool {
        consumed.isEmpty && withdrawn.isEmpty && deadlines.isEmpty && predicted.isEmpty && priorities.isEmpty
            && released.isEmpty && forgotten.isEmpty
    }
}

/// The changes one coordinator frame makes to its fetcher's requests, in
/// the order they are performed: consumed, withdrawn, prefetched, re-dated,
/// checked for a due-soon hedge, re-ranked, released.
package struct FetchBatch<Key: Hashable & Sendable>: Sendable {
    /// What is done to requests made before (and the deadlines of new ones).
    package var changes = FetchRequestChanges()
    /// Keys to prefetch, at ``prefetchPriority``.
    package var prefetches: [Key] = []
    /// The priority of ``prefetches``.
    package var prefetchPriority: FetchPriority = .normal

    package init() {}

    /// Whether there is nothing to perform.
    package var isEmpty: Bool { changes.isEmpty && prefetches.isEmpty }
}

extension AsyncFetcher {
    /// Performs `batch` under one acquisition of the fetcher's lock (the
    /// clock read once before it), and returns the handles of its
    /// prefetches, in order. Completions, cancellations of running loads
    /// and started work happen after the lock, as for every call.
    ///
    /// - Complexity: O(batch) scheduler operations.
    package func perform(_ batch: FetchBatch<Key>) -> [FetchTask] {
        guard !batch.isEmpty else { return [] }
        // Read before the lock: the clock is the user's.
        let changes = batch.changes
        let now = changes.predicted.isEmpty ? .zero : core.timeline()
        let core = self.core
        var cancelledDeliveries: [any CancellableDelivery] = []
        let tasks: [FetchTask] = core.update { state, effects in
            // A request answered from the cache has no interest to touch.
            for task in changes.consumed where task.owner != nil {
                let id = task.interest.id
                if let priority = state.scheduler.priority(of: id), priority > .low {
                    state.scheduler.setPriority(.low, of: id)
                }
            }
            func withdraw(_ withdrawn: [FetchTask]) {
                for task in withdrawn where task.owner != nil {
                    if let payload = state.scheduler.withdraw(task.interest.id) {
                        effects.deliveries.append((.failure(CancellationError()), [payload]))
                    }
                    if let delivery = task.interest.delivery { cancelledDeliveries.append(delivery) }
                }
            }
            withdraw(changes.withdrawn)
            // A prefetch carries no completion: nothing to deliver when it is let go of.
            for task in changes.forgotten where task.owner != nil { state.scheduler.letGo(task.interest.id) }
            var tasks: [FetchTask] = []
            tasks.reserveCapacity(batch.prefetches.count)
            for key in batch.prefetches {
                if core.memoryCache.valueCountingHit(forKey: key) != nil {
                    tasks.append(FetchTask(completedWith: batch.prefetchPriority))
                    continue
                }
                let id = state.scheduler.addInterest(in: key, priority: batch.prefetchPriority, payload: nil)
                tasks.append(
                    FetchTask(
                        owner: core, interest: FetchInterestHandle(id: id, delivery: nil),
                        priority: batch.prefetchPriority))
            }
            func task(_ request: FetchBatchRequest) -> FetchTask {
                switch request {
                case .task(let task): task
                case .prefetch(let index): tasks[index]
                }
            }
            for (request, deadline) in changes.deadlines {
                let task = task(request)
                if task.owner != nil { state.scheduler.setDeadline(deadline, of: task.interest.id) }
            }
            // As `FetchTask.setDeadline`: a prefetch about to be shown whose load runs slow gets its hedge.
            if state.hedges.policy.isEnabled {
                for request in changes.predicted where task(request).owner != nil {
                    let id = task(request).interest.id
                    // Only a running load has an attempt to hedge (`HedgeBook.hedgeIfDue`): most do not.
                    guard state.scheduler.isLoadRunning(forInterest: id), let key = state.scheduler.key(of: id) else {
                        continue
                    }
                    state.keyWasReDated(key, now: now)
                }
            }
            for (task, priority) in changes.priorities where task.owner != nil {
                state.scheduler.setPriority(priority, of: task.interest.id)
            }
            withdraw(changes.released)
            return tasks
        }
        // A main-actor completion handed its result but not yet run is taken back too.
        for delivery in cancelledDeliveries { delivery.cancelDelivery() }
        return tasks
    }

    /// The time now on the fetcher's timeline (its clock, from when it was
    /// made): what a batch's deadlines are placed on.
    package var timelineNow: Duration { core.timeline() }

    /// Loads waiting for a free slot and the concurrency limit, as one read
    /// of the lock: what a planner adds the queue's wait from.
    /// Withdraws `tasks` under one acquisition of the lock.
    package func withdraw(_ tasks: [FetchTask]) {
        guard !tasks.isEmpty else { return }
        var batch = FetchBatch<Key>()
        batch.changes.withdrawn = tasks
        _ = perform(batch)
    }

    /// Which of `tasks` wait for a load that has not started (queued, or
    /// backing off before a retry): the rest have ended or are loading.
    package func notStarted(_ tasks: [FetchTask]) -> [Bool] {
        core.state.withLock { state in
            tasks.map { task in
                guard task.owner != nil, let key = state.scheduler.key(of: task.interest.id) else { return false }
                switch state.scheduler.phase(of: key) {
                case .running: return false
                default: return true
                }
            }
        }
    }

    package var loadQueue: LoadQueueState {
        core.state.withLock { state in
            LoadQueueState(
                pending: state.scheduler.pendingCount, maxConcurrentLoads: state.scheduler.maxConcurrentLoads)
        }
    }
}
