#if Tools
public import Foundation
public import Logging
import Lookahead
import LookaheadServer
public import LookaheadSimulation

/// The demo's settings, checked: every value is in range once one exists.
public struct DemoConfiguration: Sendable {
    /// The prefetching strategy shown.
    public var strategy = DemoStrategy.adaptive
    /// How long the scripted scroll runs.
    public var duration = Duration.seconds(15)
    /// The embedded server's median latency per request.
    public var latencyMedian = Duration.milliseconds(120)
    /// The embedded server's 99th-percentile latency per request.
    public var latencyP99 = Duration.milliseconds(800)
    /// Keys drive the scrolling instead of the script.
    public var isInteractive = false
    /// A feed server to use instead of the embedded one.
    public var serverURL: URL?
    /// The seed of the scripted scroll.
    public var seed: UInt64 = 1
    /// Frames per second.
    public var frameRate: Double = 30
    /// The most loads that run at once.
    public var maxConcurrentLoads = 6
    /// How many items the embedded server serves.
    public var itemCount = 1_000
    /// The log level.
    public var logLevel = Logger.Level.info
    /// Whether `system` is shown beside ``strategy`` (`--compare`).
    public var isComparing = false
    /// How the scripted scroll moves.
    public var script = ScrollTraceGenerator.Style.skimming

    /// The strategies shown, left to right: `system` and ``strategy`` when
    /// comparing, ``strategy`` alone otherwise.
    public var strategies: [DemoStrategy] { isComparing ? [.system, strategy] : [strategy] }

    /// The defaults: adaptive, 15 s of scripted skimming (drags, flicks and
    /// pauses), a feed's latency (120 ms median, 800 ms p99), 30 fps. At
    /// these, prefetching visibly matters: without it about one visible cell
    /// in eight is blank, with UIKit's window one in sixteen.
    public static let defaults = DemoConfiguration()

    /// The defaults, which `parse` changes.
    init() {}

    /// How long `script` runs when `--duration` is not given: 15 s, but 40 s
    /// for `jumping`, whose first jump to the top comes 15–30 s in (then a
    /// read of 1–4 s there, and the jump back): a 15-second run never jumps.
    public static func defaultDuration(for script: ScrollTraceGenerator.Style) -> Duration {
        script == .jumping ? .seconds(40) : defaults.duration
    }

    /// Checks command-line values and builds a configuration from them.
    ///
    /// - Parameters:
    ///   - strategy: `adaptive`, `system`, `texture` or `none`.
    ///   - durationSeconds: the scripted scroll's length; above 0, at most an
    ///     hour; `nil` for the script's ``defaultDuration(for:)``.
    ///   - latencyMedianMilliseconds: the embedded server's median added
    ///     latency, 0 to 600,000; with `latencyP99Milliseconds`, checked by
    ///     the server's own rule (`FaultInjection.latencyLimits`).
    ///   - latencyP99Milliseconds: at least the median, at most 600,000 and
    ///     at most 1,000 times a median above 0.
    ///   - interactive: keys drive the scrolling; needs the UI.
    ///   - showsUI: whether the grid is drawn (false for `--no-ui` or when
    ///     standard output is not a terminal).
    ///   - server: an `http://` URL of a running feed server, or `nil` for the
    ///     embedded one.
    ///   - seed: the seed of the scripted scroll.
    ///   - frameRate: frames per second, 1 to 120.
    ///   - concurrency: the most loads at once, 1 to 64.
    ///   - items: the embedded server's item count, 1 to 100,000.
    ///   - logLevel: a swift-log level name (`trace` … `critical`).
    ///   - compare: show `system` beside `strategy`, which must then be another one.
    ///   - script: the scripted scroll's style, a ``ScrollTraceGenerator/Style`` name.
    /// - Throws: ``DemoConfigurationError`` naming the option, the value and
    ///   what was expected.
    public static func parse(
        strategy: String = defaults.strategy.rawValue, durationSeconds: Double? = nil,
        latencyMedianMilliseconds: Double = defaults.latencyMedian / .milliseconds(1),
        latencyP99Milliseconds: Double = defaults.latencyP99 / .milliseconds(1), interactive: Bool = false,
        showsUI: Bool = true, server: String? = nil, seed: UInt64 = defaults.seed,
        frameRate: Double = defaults.frameRate, concurrency: Int = defaults.maxConcurrentLoads,
        items: Int = defaults.itemCount, logLevel: String = defaults.logLevel.rawValue, compare: Bool = false,
        script: String = defaults.script.rawValue
    ) throws(DemoConfigurationError) -> DemoConfiguration {
        guard let parsedStrategy = DemoStrategy(rawValue: strategy) else {
            throw DemoConfigurationError(
                "--strategy: unknown strategy '\(strategy)'; expected one of "
                    + DemoStrategy.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let problem = latencyProblem(
            medianMilliseconds: latencyMedianMilliseconds, p99Milliseconds: latencyP99Milliseconds,
            names: ("--latency-median", "--latency-p99"), within: FaultInjection.latencyLimits)
        if let problem { throw DemoConfigurationError(problem) }
        if interactive && !showsUI {
            throw DemoConfigurationError(
                "--interactive: needs the grid on a terminal; drop --no-ui and run it with standard output on a "
                    + "terminal")
        }
        var serverURL: URL?
        if let server {
            guard let url = URL(string: server), url.scheme == "http", let host = url.host, !host.isEmpty else {
                throw DemoConfigurationError(
                    "--server: expected an http:// URL such as http://127.0.0.1:8080, got '\(server)'")
            }
            serverURL = url
        }
        guard frameRate.isFinite, frameRate >= 1, frameRate <= 120 else {
            throw DemoConfigurationError("--frame-rate: expected 1 to 120 frames per second, got \(frameRate)")
        }
        guard (1...64).contains(concurrency) else {
            throw DemoConfigurationError("--concurrency: expected 1 to 64 loads at once, got \(concurrency)")
        }
        guard (1...100_000).contains(items) else {
            throw DemoConfigurationError("--items: expected 1 to 100000 items, got \(items)")
        }
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw DemoConfigurationError(
                "--log-level: unknown level '\(logLevel)'; expected one of "
                    + Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))
        }
        if compare && parsedStrategy == .system {
            throw DemoConfigurationError(
                "--compare: shows system beside --strategy; choose another strategy than system (adaptive, texture "
                    + "or none)")
        }
        guard let parsedScript = ScrollTraceGenerator.Style(rawValue: script) else {
            throw DemoConfigurationError(
                "--script: unknown scroll '\(script)'; expected one of "
                    + ScrollTraceGenerator.Style.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let durationSeconds = durationSeconds ?? defaultDuration(for: parsedScript) / .seconds(1)
        guard durationSeconds.isFinite, durationSeconds > 0, durationSeconds <= 3_600 else {
            throw DemoConfigurationError(
                "--duration: expected seconds above 0 and at most 3600, got \(durationSeconds)")
        }
        var configuration = DemoConfiguration()
        configuration.strategy = parsedStrategy
        configuration.duration = .milliseconds(Int64((durationSeconds * 1_000).rounded()))
        configuration.latencyMedian = .microseconds(Int64((latencyMedianMilliseconds * 1_000).rounded()))
        configuration.latencyP99 = .microseconds(Int64((latencyP99Milliseconds * 1_000).rounded()))
        configuration.isInteractive = interactive
        configuration.serverURL = serverURL
        configuration.seed = seed
        configuration.frameRate = frameRate
        configuration.maxConcurrentLoads = concurrency
        configuration.itemCount = items
        configuration.logLevel = level
        configuration.isComparing = compare
        configuration.script = parsedScript
        return configuration
    }
}
#endif
