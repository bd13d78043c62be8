import Lookahead

// The simulator's loads: a FetchScheduler for items, page loads of their own
// as the runtime Pager runs them, and a TransferSimulator for the network,
// all in virtual time.

/// Performs a ``StrategyDriver``'s loads in virtual time.
///
/// Items go through a ``FetchScheduler`` with the scenario's concurrency
/// limit and the default retry policy; a `Prefetcher` is a scheduler group
/// (admission limit 2, `.low`, as `Prefetcher`'s defaults). Pages bypass the
/// scheduler, as the runtime ``Pager`` does (it starts a task per load,
/// outside any fetcher's limit), and are retried only when the
/// ``PagingStateMachine`` says so. Every load, item or page, shares the
/// scenario's link in the ``TransferSimulator``.
///
/// A hedge (decided by the fetcher's ``HedgeBook``) is a second transfer of
/// the key on the shared link, with its own latency draw: attempt `a + 1`
/// when the first is attempt `a`, as ``LowerBound``'s hedging premises say,
/// so the run stays a pure function of the seed. The oracle's plans hedge
/// chosen loads as they start (``hedgesAtStart``), through the same
/// scheduler call.
///
/// Calls made while the driver decides are queued and performed by
/// ``drain(at:)``, which the simulator calls at the time of the event.
struct SimulatedLoader: StrategyLoader {
    typealias Scheduler = FetchScheduler<Int, Int>

    /// A timer the simulator runs: the scheduler's retry of an item, the
    /// pager's of a page, an attempt's hedging threshold, or the end of a
    /// transfer's decode.
    enum Timer {
        case load(Scheduler.LoadID)
        case page(PageRequest)
        case hedge(Scheduler.LoadID)
        case decode(Int)
    }

    /// What a finished transfer means to the driver.
    enum Outcome {
        /// `key`'s data arrived, `duration` after its load started.
        case data(key: Int, duration: Duration)
        /// The page load of `key` failed.
        case pageFailure(key: Int)
    }

    let network: NetworkModel
    let keys: LoadKeys
    let maxConcurrentLoads: Int
    var scheduler: Scheduler
    var transfers: TransferSimulator
    /// The `Prefetcher`'s group, for the strategies that prefetch through one.
    var group: Scheduler.GroupID?
    /// Visible cells' requests.
    var displayInterests: [Int: Scheduler.InterestID] = [:]
    /// Prefetches, by key, to re-date them (stale ones are dead ids, ignored).
    var prefetchInterests: [Int: Scheduler.InterestID] = [:]
    /// Consumed prefetches, by key: withdrawn with their key's next withdrawal.
    var consumedInterests: [Int: [Scheduler.InterestID]] = [:]
    /// Item loads on the network, by transfer id (the scheduler's load serial).
    var loads: [Int: (id: Scheduler.LoadID, key: Int, start: Duration)] = [:]
    /// Page loads on the network, by transfer id, and their transfer by key.
    var pageLoads: [Int: (key: Int, start: Duration)] = [:]
    var pageTransfers: [Int: Int] = [:]
    /// Page loads to start (`true`) or cancel (`false`) at the next drain, in order.
    var pageOperations: [(key: Int, isStart: Bool)] = []
    /// Page transfers take ids of their own, above any scheduler serial.
    var nextPageTransfer = 1 << 48
    var pagesStarted = 0
    var pagesCancelled = 0
    /// Failed attempts per key: the attempt number of the next one.
    var failures: [Int: Int] = [:]
    /// Timers, by time (ties in the order they were set).
    var timers: [(time: Duration, timer: Timer)] = []
    /// Keys whose first attempt is hedged as it starts (the oracle's plans,
    /// which know every attempt's latency draw).
    var hedgesAtStart: Set<Int> = []
    /// How slow loads are hedged: the fetcher's own state machine
    /// (`SimulatedLoader+Hedging.swift`); `nil`: they are not.
    var hedging: Hedging?
    /// The scenario's decode stage (`SimulatedLoader+Decoding.swift`); `nil`: none.
    var decoding: Decoding?

    init(scenario: SimulationScenario, strategy: SimulationStrategy, keys: LoadKeys) {
        network = scenario.network
        self.keys = keys
        maxConcurrentLoads = scenario.maxConcurrentLoads
        scheduler = Scheduler(maxConcurrentLoads: scenario.maxConcurrentLoads, retryPolicy: .default)
        transfers = TransferSimulator(bandwidth: scenario.network.bandwidth, start: .zero - scenario.startLead)
        decoding = scenario.decoding.map(Decoding.init)
        if strategy.prefetchesThroughPrefetcher {
            group = scheduler.makeGroup(priority: .low, admissionLimit: 2)
        }
    }

    func bytes(ofKey key: Int) -> Int {
        keys.items(ofKey: key).reduce(0) { $0 + network.payloadBytes(forItem: $1) }
    }

    // MARK: StrategyLoader

    mutating func prefetch(_ key: Int) {
        let interest = scheduler.addInterest(in: key, priority: .normal, payload: nil)
        if let replaced = prefetchInterests.updateValue(interest, forKey: key) { scheduler.withdraw(replaced) }
    }

    mutating func prefetchFirstScreen(_ item: Int) {
        // Kept by nobody: like the app's handles, it lasts until its load ends.
        _ = scheduler.addInterest(in: item, priority: .high, payload: nil)
    }

    mutating func perform(_ actions: CoordinatorCore<Int>.Actions, at time: Duration) {
        if group != nil {
            // Nuke's prefetcher: its keys start and stop; nothing is consumed or dated.
            for key in actions.withdraw { stopPrefetching(key) }
            for key in actions.prefetch { startPrefetching(key) }
        } else {
            for key in actions.consume {
                // The load goes on ranked by the cell's request: the prefetch steps down to `.low`.
                guard let interest = prefetchInterests.removeValue(forKey: key) else { continue }
                if let priority = scheduler.priority(of: interest), priority > .low {
                    scheduler.setPriority(.low, of: interest)
                }
                consumedInterests[key, default: []].append(interest)
            }
            for key in actions.withdraw {
                // By its own request, as the coordinators withdraw theirs.
                if let interest = prefetchInterests.removeValue(forKey: key) { scheduler.withdraw(interest) }
                for interest in consumedInterests.removeValue(forKey: key) ?? [] { scheduler.withdraw(interest) }
            }
            for key in actions.prefetch { prefetch(key) }
            // Virtual time is trace time: deadlines are placed as they are.
            for (key, deadline) in actions.date {
                if let interest = prefetchInterests[key] { scheduler.setDeadline(deadline, of: interest) }
            }
            // As the fetcher's batch: a prefetch about to be shown may get its hedge.
            for key in actions.predicted where prefetchInterests[key] != nil { keyWasReDated(key, at: time) }
        }
        for (id, priority) in actions.rank {
            if let interest = displayInterests[id.rawValue] { scheduler.setPriority(priority, of: interest) }
        }
        // As the fetcher's batch: withdrawn unless loading.
        for key in actions.forget {
            for interest in consumedInterests.removeValue(forKey: key) ?? [] { scheduler.letGo(interest) }
        }
    }

    mutating func startPrefetching(_ item: Int) {
        guard let group else { preconditionFailure("SimulatedLoader: this strategy has no Prefetcher") }
        // The group keeps the prefetcher's keys, as the runtime `Prefetcher` does.
        scheduler.addKey(item, to: group, payload: nil)
    }

    mutating func stopPrefetching(_ item: Int) {
        if let group { scheduler.removeKey(item, from: group) }
    }

    mutating func requestForDisplay(_ item: Int, priority: FetchPriority) {
        let interest = scheduler.addInterest(in: item, priority: priority, payload: item)
        if let replaced = displayInterests.updateValue(interest, forKey: item) { scheduler.withdraw(replaced) }
    }

    mutating func withdrawDisplayRequest(_ item: Int) {
        if let interest = displayInterests.removeValue(forKey: item) { scheduler.withdraw(interest) }
    }

    var loadQueue: LoadQueueState {
        LoadQueueState(
            pending: scheduler.pendingCount, maxConcurrentLoads: maxConcurrentLoads)
    }

    mutating func loadPage(_ key: Int) {
        pageOperations.append((key, true))
    }

    mutating func cancelPage(_ key: Int) {
        pageOperations.append((key, false))
    }

    mutating func schedulePageRetry(_ request: PageRequest, at time: Duration) {
        schedule(.page(request), at: time)
    }

    func isCached(_ item: Int) -> Bool { false }

    func arrival(ofKey key: Int) -> Duration? { nil }

    // MARK: Performing

    mutating func schedule(_ timer: Timer, at time: Duration) {
        let index = timers.firstIndex { $0.time > time } ?? timers.endIndex
        timers.insert((time, timer), at: index)
    }

    /// Starts and cancels on the network what was decided, at `time`.
    mutating func drain(at time: Duration) {
        for operation in pageOperations {
            if operation.isStart {
                startPage(operation.key, at: time)
            } else if let transfer = pageTransfers.removeValue(forKey: operation.key) {
                transfers.cancel(transfer, at: time)
                pageLoads[transfer] = nil
                pagesCancelled += 1
            }
        }
        pageOperations.removeAll()
        while let action = scheduler.nextAction() {
            switch action {
            case .start(let id, let key, _):
                let transfer = Int(id.serial)
                loads[transfer] = (id, key, time)
                let isHedge = scheduler.isHedge(id)
                startTransfer(transfer, key: key, at: time, attemptsAhead: isHedge ? 1 : 0)
                if !isHedge, failures[key] == nil, hedgesAtStart.contains(key) { scheduler.hedge(id) }
                attemptStarted(id, key: key, at: time)
            case .cancel(let id, _):
                // The request is torn down at once: the load ends now.
                let transfer = Int(id.serial)
                if !cancelDecode(transfer) { transfers.cancel(transfer, at: time) }
                loads[transfer] = nil
                forgetAttempt(id, succeeded: false)
                _ = scheduler.loadDidFail(id, isTransient: false)
            case .reprioritize(let id, let key, let priority):
                // A load raised to a display priority becomes one to hedge, as in the fetcher.
                if Hedging.isDisplay(priority) { watchForHedge(id, key: key, at: time) }
            }
        }
    }

    mutating func startPage(_ key: Int, at time: Duration) {
        let transfer = nextPageTransfer
        nextPageTransfer += 1
        pageLoads[transfer] = (key, time)
        pageTransfers[key] = transfer
        pagesStarted += 1
        startTransfer(transfer, key: key, at: time)
    }

    /// Starts a transfer of `key`: its next attempt, or the one after
    /// (`attemptsAhead`: a hedge racing the attempt in flight).
    mutating func startTransfer(_ transfer: Int, key: Int, at time: Duration, attemptsAhead: Int = 0) {
        let attempt = failures[key, default: 0] + attemptsAhead
        let item = keys.items(ofKey: key).lowerBound
        transfers.start(
            transfer, latency: network.latency(forItem: item, attempt: attempt), bytes: bytes(ofKey: key),
            failing: network.fails(item: item, attempt: attempt), at: time)
    }

    /// Ends transfer `transfer` at `time`: a failed item load is left to the
    /// scheduler's retry; what the driver must hear of is returned.
    mutating func complete(_ transfer: Int, at time: Duration) -> Outcome? {
        let completion = transfers.complete(transfer, at: time)
        if let page = pageLoads.removeValue(forKey: transfer) {
            pageTransfers[page.key] = nil
            guard !completion.failed else {
                failures[page.key, default: 0] += 1
                return .pageFailure(key: page.key)
            }
            return .data(key: page.key, duration: time - page.start)
        }
        guard let load = loads.removeValue(forKey: transfer) else { return nil }
        if completion.failed {
            forgetAttempt(load.id, succeeded: false)
            failures[load.key, default: 0] += 1
            switch scheduler.loadDidFail(load.id, isTransient: true) {
            case .retry(let delay):
                schedule(.load(load.id), at: time + delay)
            case .deliver, .discarded:
                break
            }
            return nil
        }
        guard decoding == nil else {
            decode(transfer, of: load, at: time)
            return nil
        }
        return delivered(load, at: time)
    }

    /// The load `load` succeeded at `time`, its data ready to show.
    mutating func delivered(_ load: (id: Scheduler.LoadID, key: Int, start: Duration), at time: Duration) -> Outcome? {
        forgetAttempt(load.id, succeeded: true)
        guard scheduler.loadDidSucceed(load.id) != nil else { return nil }
        if let timed = hedging?.recordDuration(time - load.start) {
            // The first threshold: the attempts that started without one are timed from now.
            for id in timed.attempts { schedule(.hedge(id), at: time + timed.threshold) }
        }
        return .data(key: load.key, duration: time - load.start)
    }

    /// Loads started (retries included) and cancelled, items and pages.
    var counts: (requests: Int, cancellations: Int) {
        (scheduler.statistics.loadsStarted + pagesStarted, scheduler.statistics.loadsCancelled + pagesCancelled)
    }
}
