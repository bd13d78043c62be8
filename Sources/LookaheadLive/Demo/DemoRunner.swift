#if Tools
import Foundation
import Logging

/// Runs `lookahead demo`: sets up logging, the feed and the terminal, runs a
/// ``DemoSession``, and gives the terminal back whatever happens.
public enum DemoRunner {
    /// Runs the demo and returns its summaries (one per grid); the terminal is
    /// restored before this returns or throws.
    ///
    /// - Parameters:
    ///   - configuration: the checked settings.
    ///   - showsUI: draw the grid (standard output is a terminal and
    ///     `--no-ui` was not given).
    ///   - logFile: where logs go; without one they go nowhere while the grid
    ///     is drawn, and to standard error otherwise.
    /// - Throws: ``DemoConfigurationError`` for an unusable log file,
    ///   ``DemoTerminalError`` if the terminal cannot be taken over, and what
    ///   the feed throws while listing the items.
    @MainActor
    public static func run(
        configuration: DemoConfiguration, showsUI: Bool, logFile: String?
    ) async throws
        -> [DemoSummary]
    {
        let logger = try makeLogger(level: configuration.logLevel, showsUI: showsUI, logFile: logFile)
        let terminal = DemoTerminal()
        terminal.watchInterruptions()
        if showsUI { terminal.watchResizes() }
        let source = try await DemoFeedSource.start(configuration: configuration, logger: logger)
        let headless = DemoConfiguration.headlessTerminal
        let size = showsUI ? DemoTerminal.size() ?? headless : headless
        do {
            if showsUI { try terminal.enterFullScreen() }
            let session = DemoSession(
                configuration: configuration, feed: source.feed, terminalWidth: max(size.width, 6),
                terminalHeight: max(size.height, 4), terminal: terminal, logger: logger)
            let summaries = try await session.run()
            terminal.restore()
            await source.stop()
            return summaries
        } catch {
            terminal.restore()
            await source.stop()
            throw error
        }
    }

    static func makeLogger(
        level: Logger.Level, showsUI: Bool, logFile: String?
    ) throws(DemoConfigurationError)
        -> Logger
    {
        let label = "lookahead.demo"
        var logger: Logger
        if let logFile {
            let handler = try DemoLogHandler(label: label, path: logFile, logLevel: level)
            logger = Logger(label: label) { _ in handler }
        } else if showsUI {
            logger = Logger(label: label) { _ in SwiftLogNoOpLogHandler() }
        } else {
            logger = Logger(label: label) { StreamLogHandler.standardError(label: $0) }
        }
        logger.logLevel = level
        return logger
    }
}
#endif
