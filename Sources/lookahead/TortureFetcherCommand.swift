import ArgumentParser

/// `lookahead torture fetcher`: a seeded random operation mix over a real
/// `AsyncFetcher` and its `Prefetcher`s, checked against a reference model.
struct TortureFetcherCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetcher",
        abstract: "Torture AsyncFetcher and Prefetcher with a seeded random operation mix."
    )

    func run() async throws {
        throw ValidationError("lookahead torture fetcher is not built yet")
    }
}
