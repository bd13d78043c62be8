import ArgumentParser

/// `lookahead torture disk`: a child process writes, reads and sweeps a
/// `DiskCache` and is killed at random moments; each kill is followed by a
/// check of everything the child reported committed.
struct TortureDiskCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disk",
        abstract: "Torture DiskCache: kill a writing child process at random moments, then check what it committed."
    )

    func run() async throws {
        throw ValidationError("lookahead torture disk is not built yet")
    }
}
