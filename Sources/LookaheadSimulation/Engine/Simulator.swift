import Lookahead

/// Replays a scenario's scroll trace over its modelled network, strategy by
/// strategy, and counts what a user would have seen.
///
/// A discrete-event loop in virtual time: network completions, retry timers
/// and decodes' ends are processed in time order between
/// frames; each frame shows the viewport at the trace's offset, counts
/// visible and blank cells, asks for visible cells' data, and lets the
/// strategy decide what to load ahead. The frames and the strategies are the
/// ``StrategyDriver``'s, the one the real replay runs too; the decisions are
/// made by the shipped code — the real ``PrefetchPlanner``,
/// ``ScrollViewPrefetcherStateMachine``, ``PagingStateMachine`` and
/// ``FetchScheduler`` — so the numbers describe what ships, not a model of it.
public struct Simulator: Sendable {
    public var scenario: SimulationScenario

    /// Creates a simulator of `scenario`.
    ///
    /// - Precondition: `scenario` passes ``SimulationScenario/validate()``;
    ///   check it first where the scenario comes from a user.
    public init(scenario: SimulationScenario) {
        do {
            try scenario.validate()
        } catch {
            preconditionFailure("Simulator: \(error)")
        }
        self.scenario = scenario
    }

    /// Runs one strategy over the whole trace.
    public func run(_ strategy: SimulationStrategy) -> StrategyResult {
        runTimed(strategy).result
    }

    /// Runs one strategy, also measuring the wall-clock time its decisions took.
    ///
    /// The oracle plans several clairvoyant schedules and keeps the one with
    /// the fewest blank cell-frames (then the fewest requests): knowing the
    /// future includes knowing which plan works out (``runOracle()``).
    public func runTimed(_ strategy: SimulationStrategy) -> (result: StrategyResult, timing: SimulationTiming) {
        let run = runRecorded(strategy)
        return (run.result, run.timing)
    }

    /// Runs one strategy, also keeping when each item's data landed (for the
    /// HTML report's replay).
    func runRecorded(
        _ strategy: SimulationStrategy
    ) -> (result: StrategyResult, timing: SimulationTiming, readyTimes: [Int: Duration]) {
        guard strategy == .oracle else { return runTimed(strategy, plan: .earliestDeadlineFirst) }
        return runOracle()
    }

    /// Runs `adaptive` with other settings and concurrency limit: what
    /// `lookahead tune` scores (see ``PolicyTuner``).
    public func run(adaptive settings: AdaptiveSettings) -> StrategyResult {
        runRecorded(adaptive: settings).result
    }

    /// Runs `system` with another of the windows UIKit's prefetching might
    /// have (``UIKitWindow``); `.rows` is `system` itself.
    public func run(system window: UIKitWindow) -> StrategyResult {
        var run = SimulationRun(scenario: scenario, strategy: .system)
        run.driver.usePolicy(window.policy)
        return Self.drive(&run).result
    }

    /// Runs `swiftui` with its rows appearing `screens` beyond the viewport
    /// (a lazy stack makes rows ahead of showing them; 0 is `swiftui` itself).
    public func run(swiftUIAppearingScreens screens: Double) -> StrategyResult {
        precondition(screens >= 0 && screens.isFinite, "Simulator: screens must be 0 or more, got \(screens)")
        var run = SimulationRun(scenario: scenario, strategy: .swiftui)
        run.driver.swiftUIAppearScreens = screens
        return Self.drive(&run).result
    }

    /// Runs the causal reference (``CausalReferencePolicy``): `adaptive`'s
    /// coordinator, hedging and announced landings, its window planned
    /// against `samples` futures per plan drawn from the scenario's gesture
    /// model on a random stream of its own. `nil` where there is no model
    /// (a recorded trace), on a feed of carousels and on a sideways view.
    public func runCausalReference(samples: Int = 32) -> StrategyResult? {
        guard let style = scenario.gestures, scenario.axis == .vertical else { return nil }
        if case .carousels = scenario.layout { return nil }
        var run = SimulationRun(scenario: scenario, strategy: .adaptive)
        let maxOffset = max(0, run.driver.layout.contentSize.height - scenario.viewport.height)
        let policy = CausalReferencePolicy(
            style: style, maxOffset: maxOffset, frameRate: scenario.frameRate, samples: samples, seed: 0x5EED)
        run.driver.usePolicy(.custom(policy))
        run.driver.datesPrefetches = true
        var result = Self.drive(&run).result
        result.name = "causal"
        return result
    }

    /// ``run(adaptive:)``, also keeping when each item's data landed.
    func runRecorded(adaptive settings: AdaptiveSettings) -> (result: StrategyResult, readyTimes: [Int: Duration]) {
        var scenario = scenario
        scenario.maxConcurrentLoads = settings.maxConcurrentLoads
        var run = SimulationRun(scenario: scenario, strategy: .adaptive)
        run.driver.useAdaptiveSettings(settings)
        let (result, _, readyTimes) = Self.drive(&run)
        return (result, readyTimes)
    }

    func runTimed(
        _ strategy: SimulationStrategy, plan: OraclePlan, relaxationShownFrom: [Int: Int] = [:]
    ) -> (result: StrategyResult, timing: SimulationTiming, readyTimes: [Int: Duration]) {
        var run = SimulationRun(scenario: scenario, strategy: strategy, oraclePlan: plan)
        run.relaxationShownFrom = relaxationShownFrom
        return Self.drive(&run)
    }

    /// Runs `run` from the start to the last frame.
    static func drive(
        _ run: inout SimulationRun
    ) -> (result: StrategyResult, timing: SimulationTiming, readyTimes: [Int: Duration]) {
        let clock = ContinuousClock()
        let start = clock.now
        run.begin()
        for frame in 0..<run.frameCount {
            let time = run.driver.time(ofFrame: frame)
            run.processEvents(until: time)
            run.showFrame(frame, at: time)
        }
        run.finish()
        let engineTime = start.duration(to: clock.now)
        return (
            run.result(), SimulationTiming(engineTimePerFrame: engineTime / max(1, run.frameCount)),
            run.driver.metrics.readyTimes
        )
    }
}

/// One simulated run: the ``StrategyDriver`` over a ``SimulatedLoader``,
/// and the discrete-event loop that runs the network, the timers and the
/// oracle's releases in time order between frames.
struct SimulationRun {
    let strategy: SimulationStrategy
    let oraclePlan: OraclePlan
    let scenario: SimulationScenario
    var driver: StrategyDriver<SimulatedLoader>
    /// The oracle's requests, each released at its time (ascending).
    var releases: [(time: Duration, item: Int)] = []
    var nextRelease = 0
    /// The frame from which the lower bound's relaxation shows each item it shows.
    var relaxationShownFrom: [Int: Int] = [:]

    var frameCount: Int { driver.frameCount }

    init(scenario: SimulationScenario, strategy: SimulationStrategy, oraclePlan: OraclePlan = .earliestDeadlineFirst) {
        self.scenario = scenario
        self.strategy = strategy
        self.oraclePlan = oraclePlan
        driver = StrategyDriver(
            scenario: scenario, strategy: strategy,
            issuesDisplayRequests: strategy == .oracle ? oraclePlan.issuesDisplayRequests : nil
        ) { keys in
            SimulatedLoader(scenario: scenario, strategy: strategy, keys: keys)
        }
    }

    /// Handles network completions, timers and releases up to `time`, in time order.
    mutating func processEvents(until time: Duration) {
        while true {
            let completion = driver.loader.transfers.nextCompletion()
            let timer = driver.loader.timers.first
            let release = nextRelease < releases.count ? releases[nextRelease] : nil
            // Ties: completions, then timers (retries, hedges), then the oracle's releases.
            var earliest = time
            if let timer { earliest = min(earliest, timer.time) }
            if let release { earliest = min(earliest, release.time) }
            if let completion, completion.time <= earliest {
                complete(completion.id, at: completion.time)
            } else if let timer, timer.time <= earliest {
                driver.loader.timers.removeFirst()
                switch timer.timer {
                case .load(let id): driver.loader.scheduler.retryTimerFired(id)
                case .page(let request): driver.pageRetryDue(request, at: timer.time)
                case .hedge(let id): driver.loader.hedgeTimerFired(id, at: timer.time)
                case .decode(let transfer): hear(driver.loader.decodeFinished(transfer, at: timer.time), at: timer.time)
                }
                driver.loader.drain(at: timer.time)
            } else if let release, release.time <= earliest {
                processReleases(until: release.time)
            } else {
                return
            }
        }
    }

    /// Asks for the oracle's items whose release time has come.
    mutating func processReleases(until time: Duration) {
        while nextRelease < releases.count, releases[nextRelease].time <= time {
            driver.loader.prefetch(releases[nextRelease].item)
            nextRelease += 1
        }
        driver.loader.drain(at: time)
    }

    mutating func complete(_ transfer: Int, at time: Duration) {
        hear(driver.loader.complete(transfer, at: time), at: time)
        driver.loader.drain(at: time)
    }

    /// Tells the driver what a load's end means.
    mutating func hear(_ outcome: SimulatedLoader.Outcome?, at time: Duration) {
        switch outcome {
        case .data(let key, let duration):
            driver.loadFinished(key: key, duration: duration)
            driver.dataArrived(key: key, arrival: time, at: time)
        case .pageFailure(let key):
            driver.pageFailed(key: key, isTransient: true, at: time)
        case nil:
            break
        }
    }

    /// What happens when the app starts, before the first frame: the driver's
    /// start, and the oracle's first releases.
    mutating func begin() {
        let lead = scenario.startLead
        if lead > .zero {
            driver.beginFirstScreen()
            driver.loader.drain(at: .zero - lead)
            processEvents(until: .zero)
        }
        if !(lead > .zero && strategy.loadsPages) { driver.begin() }
        if strategy == .oracle {
            releases = OracleSchedule(scenario: scenario, plan: oraclePlan).releases(
                relaxationShownFrom: relaxationShownFrom)
            processReleases(until: .zero)
        }
        driver.loader.drain(at: .zero)
    }

    mutating func showFrame(_ frame: Int, at time: Duration) {
        driver.showFrame(frame, at: time)
        driver.loader.drain(at: time)
    }

    mutating func finish() {
        driver.finish()
    }

    func result() -> StrategyResult {
        let loader = driver.loader
        let counts = loader.counts
        var result = driver.metrics.result(
            name: strategy.rawValue, requests: counts.requests, cancellations: counts.cancellations,
            bytes: loader.transfers.bytesTransferred, completedBytes: loader.bytes(ofKey:))
        result.decoding = loader.decoding?.statistics
        return result
    }
}
