// Runs of the fetcher torture over the real fetcher: clean as it is, and with
// each injected fault reported in its own counter.

import Lookahead
import Testing

@testable import LookaheadTorture

@Suite(.timeLimit(.minutes(1)))
struct FetcherTortureTests {
    static let seeds: [UInt64] = [1, 2, 3]

    func configuration(seed: UInt64, operations: Int = 3_000) -> FetcherTortureConfiguration {
        var configuration = FetcherTortureConfiguration(operations: operations, seed: seed)
        configuration.includesReentrantRelease = false
        configuration.operationsPerCheckpoint = 500
        return configuration
    }

    @Test(arguments: seeds) func theRealFetcherHasNoViolations(seed: UInt64) async throws {
        // Given the real fetcher, without re-entrant releases
        let torture = try FetcherTorture(configuration: configuration(seed: seed))

        // When a seeded mix runs on four threads
        let report = await torture.run()

        // Then nothing is wrong, and the run did exercise requests, failures and retries
        #expect(report.violations == 0, "seed \(seed): \(report)")
        #expect(report.requests.made > 0 && report.requests.values > 0, "seed \(seed)")
        #expect(report.loader.calls > 0 && report.checkpoints == 6, "seed \(seed)")
    }

    @Test func aDuplicatedCompletionIsReportedAsDuplicate() async throws {
        let seed: UInt64 = 11
        let torture = try FetcherTorture(configuration: configuration(seed: seed)) { fetcher in
            DuplicatingTarget(base: PassThroughTarget(fetcher: fetcher), number: 50)
        }
        let report = await torture.run()
        #expect(report.requests.duplicateCompletions > 0, "seed \(seed)")
        #expect(report.violations == report.requests.duplicateCompletions, "seed \(seed): \(report)")
    }

    @Test func aDroppedCompletionIsReportedAsLost() async throws {
        let seed: UInt64 = 12
        let torture = try FetcherTorture(configuration: configuration(seed: seed)) { fetcher in
            DroppingTarget(base: PassThroughTarget(fetcher: fetcher), count: 1)
        }
        let report = await torture.run()
        #expect(report.requests.lostCompletions == 1, "seed \(seed)")
        #expect(report.violations == 1, "seed \(seed): \(report)")
    }

    @Test func valuesSwappedBetweenKeysAreReportedAsMisdelivered() async throws {
        let seed: UInt64 = 13
        let torture = try FetcherTorture(configuration: configuration(seed: seed)) { fetcher in
            SwappingTarget(base: PassThroughTarget(fetcher: fetcher))
        }
        let report = await torture.run()
        #expect(report.requests.misdelivered > 0, "seed \(seed)")
        #expect(report.violations == report.requests.misdelivered, "seed \(seed): \(report)")
    }

    @Test func aFetcherKeptAliveIsReportedAsLeaked() async throws {
        // Given a target that keeps the fetcher (and so its loader) alive
        let seed: UInt64 = 14
        let keeper = LockedValue<[AsyncFetcher<Int, TortureValue>]>([])
        let torture = try FetcherTorture(
            configuration: configuration(seed: seed, operations: 500), releaseTimeLimit: .milliseconds(100)
        ) { fetcher in
            LeakingTarget(base: PassThroughTarget(fetcher: fetcher), keeper: keeper)
        }

        // When the run ends
        let report = await torture.run()

        // Then the fetcher and the loader's sentinel count as leaked
        #expect(report.leakedTasks >= 2, "seed \(seed): \(report)")
        #expect(report.violations == report.leakedTasks, "seed \(seed): \(report)")
        keeper.withLock { $0.removeAll() }
    }

    @Test func outOfRangeParametersAreRejectedByName() {
        #expect(throws: FetcherTortureConfigurationError.self) {
            try FetcherTortureConfiguration(operations: 0, seed: 1).validate()
        }
        var configuration = FetcherTortureConfiguration(operations: 10, seed: 1)
        configuration.threads = 65
        let error = #expect(throws: FetcherTortureConfigurationError.self) { try configuration.validate() }
        #expect(error?.description == "threads must be in 1...64, got 65")
        #expect(throws: FetcherTortureConfigurationError.self) {
            try FetcherTortureConfiguration(operations: 1_000_000_001, seed: 1).validate()
        }
        configuration = FetcherTortureConfiguration(operations: 1_000_000_000, seed: 1)
        configuration.threads = 64
        #expect(throws: Never.self) { try configuration.validate() }
    }
}
