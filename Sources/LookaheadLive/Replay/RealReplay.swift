#if Tools
public import Foundation
public import Logging
import Lookahead
import LookaheadHTTP
public import LookaheadServer
public import LookaheadSimulation

/// Replays a simulator scenario in real time against the feed server, through
/// the real HTTP loader and ``AsyncFetcher``, and measures what the
/// simulator measures.
///
/// This is how the simulator is checked: the server is asked for exactly the
/// latency and payload size the simulator draws for each item and attempt,
/// and the strategies' planners, prefetchers and pagers are driven as the
/// simulator drives them, so whatever differs comes from the runtime (tasks,
/// locks, the HTTP client, sockets, the server, the machine).
///
/// For each strategy the replay starts its own ``FeedServer`` on
/// `127.0.0.1:0` (unless given `server`) serving the scenario's items, with
/// the scenario's bandwidth as the server's shared cap; builds an
/// ``HTTPLoader`` with as many connections as the scenario's
/// `maxConcurrentLoads` and an `AsyncFetcher` with as many concurrent loads;
/// then plays the trace frame by frame at the scenario's frame rate on a real
/// clock. A run takes as long as the trace.
///
/// ```swift
/// let replay = RealReplay(scenario: feed, logger: logger)
/// let outcome = try await replay.run(.adaptive)
/// print(outcome.result.blankRatio)
/// ```
///
/// The `oracle` strategy cannot be replayed (it plans with the future trace).
/// Logs go to the given logger; the replay prints nothing.
public struct RealReplay: Sendable {
    /// The scenario to replay (its trace's duration is the run's).
    public var scenario: SimulationScenario
    /// A running feed server to use instead of starting one. It must serve
    /// the scenario's items (ids `1...itemCount`) and honour `latency_ms=`
    /// and `bytes=`; its own bandwidth cap and faults apply.
    public var server: URL?
    /// The HTTP timeout of each request (the longest latency drawn must fit).
    public var requestTimeout: Duration
    /// Where the replay, the server and the loader log.
    public var logger: Logger

    /// Creates a replay.
    ///
    /// - Parameters:
    ///   - scenario: what to replay.
    ///   - server: an external feed server, or `nil` to start one per strategy.
    ///   - requestTimeout: each request's deadline (default 60 s).
    ///   - logger: where everything logs (by default nowhere).
    public init(
        scenario: SimulationScenario, server: URL? = nil, requestTimeout: Duration = .seconds(60),
        logger: Logger = Logger(label: "lookahead.replay", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.scenario = scenario
        self.server = server
        self.requestTimeout = requestTimeout
        self.logger = logger
    }

    /// The embedded server's configuration for the scenario.
    public var serverConfiguration: FeedServerConfiguration {
        var bandwidth: Int?
        if case .bitsPerSecond(let bits) = scenario.network.bandwidth { bandwidth = max(1, Int((bits / 8).rounded())) }
        return FeedServerConfiguration(
            itemCount: scenario.makeLayout().totalItemCount, seed: scenario.network.seed,
            faults: FaultInjection(bandwidthBytesPerSecond: bandwidth))
    }

    /// Replays `strategy` over the whole trace, in real time.
    ///
    /// - Parameters:
    ///   - strategy: any strategy but `oracle`.
    ///   - clock: the clock frames are timed on.
    ///   - progress: called about once per second of the trace, and after the last frame.
    /// - Returns: the metrics and what the run itself looked like.
    /// - Throws: ``RealReplayError``, `CancellationError` when the calling
    ///   task is cancelled (everything is stopped first), or an error
    ///   decoding the result.
    public func run(
        _ strategy: SimulationStrategy, clock: some Clock<Duration> = ContinuousClock(),
        progress: (RealReplayProgress) -> Void = { _ in }
    ) async throws -> RealReplayResult {
        guard strategy != .oracle else { throw RealReplayError.notReplayable(strategy) }
        var logger = self.logger
        logger[metadataKey: "strategy"] = "\(strategy.rawValue)"
        var embedded: FeedServer?
        let baseURL: URL
        if let server {
            baseURL = server
        } else {
            // Hummingbird reports its ordinary shutdown as an error: the
            // server speaks at the replay's level only when that is verbose.
            var serverLogger = logger
            if serverLogger.logLevel > .info { serverLogger.logLevel = .critical }
            let feedServer = FeedServer(configuration: serverConfiguration, logger: serverLogger)
            do {
                baseURL = try await feedServer.start()
            } catch {
                throw RealReplayError.serverDidNotStart("\(error)")
            }
            embedded = feedServer
        }
        let http = HTTPLoader(
            baseURL: baseURL,
            configuration: HTTPLoaderConfiguration(
                timeout: requestTimeout, maximumConnections: scenario.maxConcurrentLoads),
            clock: clock, logger: logger)
        // The rig's own time per request, measured before the run; the embedded
        // server then forgets those requests, so its counters are the run's.
        let calibrationStart = clock.now
        let rigOverhead = await ReplayLoader.calibrate(http: http, connections: scenario.maxConcurrentLoads) {
            calibrationStart.duration(to: clock.now)
        }
        logger.info("calibrated", metadata: ["rig overhead per request": "\(rigOverhead)"])
        if let embedded {
            _ = await Self.settledStatistics(of: embedded, clock: clock)
            embedded.resetStatistics()
        }
        do {
            var outcome = try await play(
                strategy, http: http, rigOverhead: rigOverhead, clock: clock, logger: logger, progress: progress)
            try? await http.shutdown()
            if let embedded {
                outcome.serverStatistics = await Self.settledStatistics(of: embedded, clock: clock)
                await embedded.stop()
            }
            return outcome
        } catch {
            try? await http.shutdown()
            await embedded?.stop()
            throw error
        }
    }

    private func play<C: Clock<Duration>>(
        _ strategy: SimulationStrategy, http: HTTPLoader, rigOverhead: Duration, clock: C, logger: Logger,
        progress: (RealReplayProgress) -> Void
    ) async throws -> RealReplayResult {
        let origin = clock.now
        let elapsed: @Sendable () -> Duration = { origin.duration(to: clock.now) }
        let keys = LoadKeys(strategy: strategy, scenario: scenario)
        let loader = ReplayLoader(
            http: http, network: scenario.network, keys: keys, elapsed: elapsed, rigOverhead: rigOverhead,
            logger: logger)
        // `adaptive` hedges as the simulator's does: the shipped settings, and
        // nothing at once on a link of limited bandwidth.
        let shipped = AdaptiveSettings.shipped(maxConcurrentLoads: scenario.maxConcurrentLoads)
        let fetcher = AsyncFetcher<Int, ReplayPayload>(
            maxConcurrentLoads: scenario.maxConcurrentLoads,
            // Everything loaded stays, as in the simulator.
            memoryCache: MemoryCache(costLimit: .max, countLimit: max(1, keys.itemCount), cost: { $0.bytes }),
            clock: clock, retryPolicy: .default, isTransient: HTTPLoader.isTransient,
            hedging: strategy.fetcherHedging,
            hedgesDueSoonAtOnce: shipped.hedgesDueSoonAtOnce(over: scenario.network.bandwidth)
        ) { key in
            try await loader.load(key)
        }
        let run = ReplayRun(scenario: scenario, strategy: strategy, fetcher: fetcher, loader: loader, logger: logger)
        logger.info(
            "replaying",
            metadata: [
                "scenario": "\(scenario.name)", "frames": "\(run.frameCount)", "server": "\(http.baseURL)",
                "duration": "\(scenario.trace.duration)",
            ])
        let framesPerReport = max(1, Int(scenario.frameRate.rounded()))
        do {
            try await run.play(
                elapsed: elapsed,
                sleep: { time in try await clock.sleep(until: origin.advanced(by: time), tolerance: nil) },
                progress: { frame in
                    guard (frame + 1) % framesPerReport == 0 || frame + 1 == run.frameCount else { return }
                    progress(
                        RealReplayProgress(strategy: strategy, framesPlayed: frame + 1, frameCount: run.frameCount))
                })
        } catch {
            await run.withdrawEverything()
            await Self.waitUntilQuiet(fetcher, clock: clock)
            throw error
        }
        let statistics = fetcher.statistics
        let counts = loader.finish()
        run.finish()
        let result = run.result(statistics: statistics, requests: counts.requests, receivedBytes: counts.bytes)
        await run.withdrawEverything()
        await Self.waitUntilQuiet(fetcher, clock: clock)
        if run.lateFrames > 0 {
            logger.notice(
                "late frames",
                metadata: ["late": "\(run.lateFrames)", "of": "\(run.frameCount)", "max": "\(run.maxLateness)"])
        }
        logger.info(
            "replayed",
            metadata: [
                "blank": "\(result.blankCellFrames)/\(result.visibleCellFrames)", "requests": "\(result.requests)",
                "cancellations": "\(result.cancellations)",
            ])
        return RealReplayResult(
            result: result, frames: run.frameCount, lateFrames: run.lateFrames, maxFrameLateness: run.maxLateness,
            fetchStatistics: statistics, serverStatistics: nil)
    }

    /// The server's counters once it has seen every request end (closed
    /// connections reach it a little after the client closes them), or
    /// after 2 s.
    private static func settledStatistics(
        of server: FeedServer, clock: some Clock<Duration>
    ) async
        -> FeedServerStatistics
    {
        await Settling.wait(
            until: { server.statistics.inFlight == 0 }, within: .seconds(2), pollingEvery: .milliseconds(5),
            clock: clock)
        return server.statistics
    }

    /// Waits, at most 5 s, for the fetcher's running and pending loads to
    /// wind down once everything has been withdrawn (cancelled loads close
    /// their connections; the server then sees them end).
    private static func waitUntilQuiet(_ fetcher: AsyncFetcher<Int, ReplayPayload>, clock: some Clock<Duration>) async {
        await Settling.wait(
            until: { fetcher.runningLoadCount + fetcher.pendingLoadCount == 0 }, within: .seconds(5),
            pollingEvery: .milliseconds(5), clock: clock)
    }
}
#endif
