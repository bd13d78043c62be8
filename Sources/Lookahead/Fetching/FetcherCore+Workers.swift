public import DequeModule

/// The worker pool of ``FetcherCore``: tasks that each run one load at a
/// time and take the next started load without a new task, and park (holding
/// no thread) when there is none.
///
/// No worker polls for work before it parks: it saved no measurable time
/// (docs/decisions.md, "Workers park without polling first").
extension FetcherCore {

    @usableFromInline
    enum WorkerStep {
        case job(Job)
        case park
        case exit
    }

    @inlinable
    func runWorker(_ id: Int, first: Job) async {
        var job = first
        while true {
            let result: Result<Value, any Error>
            // Read outside the lock: the clock is the user's.
            let elapsed = timesLoads ? startStopwatch() : nil
            if Task.isCancelled {
                // Cancelled between being handed the job and starting it: a
                // loader that never checks for cancellation must not run.
                result = .failure(CancellationError())
            } else if hasObservers {
                result = await observedLoad(job)
            } else {
                do {
                    result = .success(try await load(job.key, job.context))
                } catch {
                    result = .failure(error)
                }
            }
            guard let next = await finish(job, with: result, duration: elapsed?(), worker: id) else { return }
            job = next
        }
    }

    /// Reports a load's outcome and returns the worker's next job, or `nil`
    /// when the worker must exit.
    @inlinable
    func finish(_ job: Job, with result: Result<Value, any Error>, duration: Duration?, worker: Int) async -> Job? {
        if case .success(let value) = result, !Task.isCancelled {
            // Stored before the load is reported, and outside the fetcher's
            // lock: a request arriving meanwhile finds either the load, still
            // running, or the value. A cancelled load's value is not kept.
            memoryCache.setValue(value, forKey: job.key)
        }
        let next: WorkerStep = update { state, effects in
            state.executing[job.id.serial] = nil
            state.record(result, of: job, duration: duration, isTransient: isTransient, into: &effects)
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
            return await park(worker)
        }
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

}

extension FetcherCore.State {
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
