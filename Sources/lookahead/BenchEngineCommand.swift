#if Tools
import ArgumentParser
import LookaheadBenchmarks

/// `lookahead bench engine`: `Lookahead.AsyncFetcher` against the design of Apple's sample `AsyncFetcher`.
struct BenchEngineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engine",
        abstract: "Time Lookahead's AsyncFetcher against Apple's sample AsyncFetcher design.",
        discussion: """
            Three seeded workloads (mixed, fetchedData, fetch-cancel) run on both fetchers. \
            Build in release for figures that mean anything: \
            swift run -c release lookahead bench engine
            """
    )

    @OptionGroup var options: EngineBenchmarkOptions

    func run() async throws {
        try await options.runEngineBenchmark()
    }
}
#endif
