#if Tools
import ArgumentParser

/// `lookahead torture …`: seeded random operation mixes over the real engine
/// and the disk cache, checked against reference models.
struct TortureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "torture",
        abstract: "Torture the fetcher and the disk cache with seeded random operations; report violations.",
        subcommands: [
            TortureFetcherCommand.self, TortureDiskCommand.self, TortureCoordinatorCommand.self,
            TortureBoundCommand.self,
        ]
    )
}
#endif
