/// Loads a paged list through a user closure, a page at a time, ahead of the
/// user: the driver of `PagingStateMachine`.
///
/// The pager performs the machine's actions — a load runs in a task, a retry
/// sleeps on the injected clock, a cancellation cancels the load's task — and
/// feeds the outcomes back. Decisions are all the machine's; state lives
/// behind one lock, and `onChange` is called with the lock released.
///
/// Errors conforming to ``TransientError`` are retried with the configured
/// backoff; others fail the page at once and surface in ``appendState``,
/// ``prependState`` or ``refreshState`` until ``retry()``.
public final class Pager<Item: Identifiable & Sendable>: Sendable {
    /// Loads one page: the request says where it starts, how many items and
    /// at which end; throw a ``TransientError`` to have it retried.
    public typealias Loader = @Sendable (PageRequest) async throws -> Page<Item>

    private struct State {
        var machine: PagingStateMachine<Item>
        /// The task working for each request, with a serial so that a task
        /// that ends late neither forgets its successor for the same request
        /// nor speaks for it.
        var tasks: [PageRequest: (serial: Int, task: Task<Void, Never>)] = [:]
        var nextSerial = 0
        /// Endings of tasks no longer working for their request, dropped.
        var staleEndingsDropped = 0
        var onChange: (@Sendable () -> Void)?
        /// How long successful loads took, on the injected clock.
        var latencies = LoadDurationEstimator(quantile: 0.9, capacity: 32)
    }

    private let state: LockedValue<State>
    private let load: Loader
    private let sleep: @Sendable (Duration) async throws -> Void
    /// Starts a stopwatch on the injected clock; calling the result reads it.
    private let startStopwatch: @Sendable () -> @Sendable () -> Duration

    /// Creates a pager; call ``start(firstScreenItemCount:)`` to load the first page.
    ///
    /// - Parameters:
    ///   - configuration: page size, prefetch distance, `maxSize`, retries.
    ///   - clock: the clock retry delays are measured on.
    ///   - load: loads one page; called at most once at a time per end of the list.
    public init(
        configuration: PagingConfiguration,
        clock: some Clock<Duration> = ContinuousClock(),
        load: @escaping Loader
    ) {
        state = LockedValue(State(machine: PagingStateMachine(configuration: configuration)))
        self.load = load
        sleep = { duration in try await clock.sleep(for: duration) }
        startStopwatch = {
            let start = clock.now
            return { start.duration(to: clock.now) }
        }
    }

    deinit {
        // Cancelling runs the loaders' cancellation handlers: never under the lock.
        let tasks = state.withLock { state in
            defer { state.tasks.removeAll() }
            return state.tasks.values.map(\.task)
        }
        for task in tasks { task.cancel() }
    }

    // MARK: Queries

    /// The loaded items, in list order, without placeholders.
    public var items: [Item] { state.withLock { Array($0.machine.items) } }
    /// The rows the list shows: loaded items and placeholders.
    public var itemCount: Int { state.withLock { $0.machine.itemCount } }
    /// The item at `index`, or `nil` for a placeholder.
    public func item(at index: Int) -> Item? { state.withLock { $0.machine.item(at: index) } }
    /// The state of loading after the last loaded page.
    public var appendState: PagingLoadState { state.withLock { $0.machine.appendState } }
    /// The state of loading before the first loaded page.
    public var prependState: PagingLoadState { state.withLock { $0.machine.prependState } }
    /// The state of the first load or last refresh.
    public var refreshState: PagingLoadState { state.withLock { $0.machine.refreshState } }

    /// The rows, their position and the load states, read together.
    /// - Complexity: O(1): the items are shared, not copied.
    public var snapshot: PagedListSnapshot<Item> {
        state.withLock { state in
            let machine = state.machine
            return PagedListSnapshot(
                items: machine.items,
                leadingPlaceholderCount: machine.leadingPlaceholderCount,
                trailingPlaceholderCount: machine.trailingPlaceholderCount,
                origin: machine.leading - machine.leadingPlaceholderCount,
                appendState: machine.appendState,
                prependState: machine.prependState,
                refreshState: machine.refreshState)
        }
    }

    /// The 90th percentile of how long the recent pages took to load, on the
    /// pager's clock; `nil` until a page has loaded. What the adaptive trigger
    /// (``accessed(index:velocity:observedPageLatency:)``) wants to know.
    public var observedPageLatency: Duration? {
        state.withLock { $0.latencies.count == 0 ? nil : $0.latencies.estimate }
    }

    /// Called, without the lock held and on no particular thread, after every
    /// change to the items or the load states.
    public var onChange: (@Sendable () -> Void)? {
        get { state.withLock { $0.onChange } }
        set {
            // The closure replaced is released after the lock: its captures may
            // deinit something that calls the pager.
            let replaced = state.withLock { state in
                defer { state.onChange = newValue }
                return state.onChange
            }
            withExtendedLifetime(replaced) {}
        }
    }

    /// Whether `request` is still loading or waiting to retry: false once
    /// it ended, landed or not (a test hook).
    package func hasTask(for request: PageRequest) -> Bool {
        state.withLock { $0.tasks[request] != nil }
    }

    /// How many tasks ended after they stopped working for their request
    /// (cancelled, their request asked for again): their results were
    /// dropped (a test hook).
    package var staleEndingsDropped: Int { state.withLock { $0.staleEndingsDropped } }

    // MARK: Events

    /// Loads the first page.
    ///
    /// - Parameter firstScreenItemCount: how many items the first screen
    ///   shows, if known: the first request then asks for just those, and the
    ///   rest of `initialLoadSize` follows at once (see
    ///   `PagingStateMachine.start(firstScreenItemCount:)`).
    public func start(firstScreenItemCount: Int? = nil) {
        send { $0.start(firstScreenItemCount: firstScreenItemCount) }
    }
    /// Reloads the list from its start.
    public func refresh() { send { $0.refresh() } }
    /// Retries every failed page.
    public func retry() { send { $0.retry() } }
    /// The UI displayed, or asked for, the item at `index`.
    public func accessed(index: Int) { send { $0.accessed(index: index) } }

    /// The adaptive variant of ``accessed(index:)``: see
    /// `PagingStateMachine.accessed(index:velocity:observedPageLatency:)`.
    public func accessed(index: Int, velocity itemsPerSecond: Double, observedPageLatency: Duration) {
        send { $0.accessed(index: index, velocity: itemsPerSecond, observedPageLatency: observedPageLatency) }
    }

    // MARK: Driving

    private func send(
        endingTask: (request: PageRequest, serial: Int)? = nil,
        _ event: (inout PagingStateMachine<Item>) -> [PagingStateMachine<Item>.Action]
    ) {
        let (onChange, cancelled) = state.withLock { state -> ((@Sendable () -> Void)?, [Task<Void, Never>]) in
            if let endingTask {
                // A task cancelled, whose request was asked for again, must not
                // end the new attempt: the machine knows requests, not attempts.
                guard state.tasks[endingTask.request]?.serial == endingTask.serial else {
                    state.staleEndingsDropped += 1
                    return (nil, [])
                }
                state.tasks[endingTask.request] = nil
            }
            let actions = event(&state.machine)
            var cancelled: [Task<Void, Never>] = []
            perform(actions, in: &state, cancelling: &cancelled)
            return (state.onChange, cancelled)
        }
        // Cancelling runs the loader's cancellation handler, user code that may
        // call the pager: only now that the lock is released.
        for task in cancelled { task.cancel() }
        onChange?()
    }

    /// Starts tasks for the actions, and collects those to cancel once the
    /// lock is released. Runs with the lock held: a task only starts running
    /// its body after the lock is released.
    private func perform(
        _ actions: [PagingStateMachine<Item>.Action], in state: inout State,
        cancelling cancelled: inout [Task<Void, Never>]
    ) {
        for action in actions {
            switch action {
            case .load(let request):
                state.nextSerial += 1
                let serial = state.nextSerial
                let task = Task { [weak self, load, startStopwatch] in
                    let result: Result<Page<Item>, any Error>
                    let elapsed = startStopwatch()
                    do {
                        result = .success(try await load(request))
                    } catch {
                        result = .failure(error)
                    }
                    self?.finish(request, serial: serial, with: result, after: elapsed())
                }
                state.tasks[request] = (serial, task)
            case .retry(let request, let delay):
                state.nextSerial += 1
                let serial = state.nextSerial
                let task = Task { [weak self, sleep] in
                    do {
                        try await sleep(delay)
                    } catch {
                        return
                    }
                    self?.send(endingTask: (request, serial)) { $0.retryTimerFired(request) }
                }
                state.tasks[request] = (serial, task)
            case .cancel(let request):
                if let entry = state.tasks.removeValue(forKey: request) { cancelled.append(entry.task) }
            case .dropped:
                break
            }
        }
    }

    private func finish(
        _ request: PageRequest, serial: Int, with result: Result<Page<Item>, any Error>, after duration: Duration
    ) {
        if case .success = result {
            state.withLock { $0.latencies.record(duration) }
        }
        send(endingTask: (request, serial)) { machine in
            switch result {
            case .success(let page):
                return machine.pageLoaded(request: request, page: page)
            case .failure(let error):
                let isTransient = isTransientByDefault(error) && !(error is CancellationError)
                return machine.pageFailed(request: request, error: "\(error)", isTransient: isTransient)
            }
        }
    }
}
