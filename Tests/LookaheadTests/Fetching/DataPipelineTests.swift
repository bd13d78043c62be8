import Foundation
import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1)))
struct DataPipelineTests {
    /// Counts calls, behind a lock.
    final class Counter: Sendable {
        private let counts = LockedValue([Int: Int]())
        func record(_ key: Int) { counts.withLock { $0[key, default: 0] += 1 } }
        subscript(key: Int) -> Int { counts.withLock { $0[key, default: 0] } }
        var total: Int { counts.withLock { $0.values.reduce(0, +) } }
    }

    struct Decoded: Equatable, Sendable {
        let text: String
    }

    struct NotText: Error {}

    private func bytes(_ key: Int) -> [UInt8] { Array("item \(key)".utf8) }

    /// Runs `body` with a disk cache in a fresh directory, removed afterwards.
    private func withDiskCache(_ body: (DiskCache, URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory
            .appending(path: "DataPipelineTests-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(try DiskCache(directory: directory.path(percentEncoded: false)), directory)
    }

    private func makePipeline(
        _ diskCache: DiskCache, fetches: Counter, decodes: Counter,
        fetchData: (@Sendable (Int) async throws -> [UInt8])? = nil
    ) -> DataPipeline<Int, Decoded> {
        let bytes = self.bytes
        return DataPipeline(
            diskCache: diskCache,
            maxConcurrentLoads: 3,
            fetchData: { key in
                fetches.record(key)
                return try await fetchData?(key) ?? bytes(key)
            },
            decode: { key, data in
                decodes.record(key)
                guard let text = String(validating: data, as: UTF8.self) else { throw NotText() }
                return Decoded(text: text)
            })
    }

    /// Waits until the prefetcher's fetcher is idle: every prefetch has
    /// completed or failed and its completion has returned.
    private func waitUntilComplete<V>(_ prefetcher: Prefetcher<Int, V>, count: Int) async {
        await prefetcher.fetcher.waitUntilIdle()
        #expect(prefetcher.completedCount + prefetcher.failedCount == count)
    }

    @Test func theDiskDestinationStoresBytesWithoutDecodingOrKeepingThemInMemory() async throws {
        try await withDiskCache { disk, _ in
            let fetches = Counter()
            let decodes = Counter()
            let pipeline = makePipeline(disk, fetches: fetches, decodes: decodes)
            let prefetcher = Prefetcher(diskPrefetchingFor: pipeline)
            #expect(prefetcher.destination == .disk)

            prefetcher.startPrefetching(with: Array(0..<20))
            await waitUntilComplete(prefetcher, count: 20)
            await pipeline.dataFetcher.waitUntilIdle()

            #expect(prefetcher.completedCount == 20)
            #expect(disk.count == 20)
            #expect(disk.data(forKey: 7) == bytes(7))
            #expect(decodes.total == 0)
            #expect(pipeline.dataFetcher.memoryCache.count == 0)
            #expect(pipeline.fetcher.memoryCache.count == 0)
        }
    }

    @Test func valuesComeFromDiskAfterADiskPrefetch() async throws {
        try await withDiskCache { disk, _ in
            let fetches = Counter()
            let decodes = Counter()
            let pipeline = makePipeline(disk, fetches: fetches, decodes: decodes)
            let prefetcher = Prefetcher(diskPrefetchingFor: pipeline)
            prefetcher.startPrefetching(with: [1, 2, 3])
            await waitUntilComplete(prefetcher, count: 3)

            let value = try await pipeline.fetcher.value(for: 2)

            #expect(value == Decoded(text: "item 2"))
            #expect(fetches[2] == 1)
            #expect(decodes[2] == 1)
            #expect(pipeline.fetcher.fetchedData(for: 2) == value)
        }
    }

    @Test func keysAlreadyOnDiskAreSkipped() async throws {
        try await withDiskCache { disk, _ in
            let fetches = Counter()
            let pipeline = makePipeline(disk, fetches: fetches, decodes: Counter())
            try disk.store(bytes(5), forKey: 5)
            let prefetcher = Prefetcher(diskPrefetchingFor: pipeline)

            prefetcher.startPrefetching(with: [5, 6])
            await waitUntilComplete(prefetcher, count: 1)

            #expect(prefetcher.skippedCount == 1)
            #expect(fetches[5] == 0)
            #expect(fetches[6] == 1)
        }
    }

    @Test func aDisplayRequestJoinsTheDiskPrefetchInFlight() async throws {
        try await withDiskCache { disk, _ in
            let gate = LoadGate<Int, [UInt8]>()
            let fetches = Counter()
            let pipeline = makePipeline(disk, fetches: fetches, decodes: Counter()) { key in
                try await gate.load(key)
            }
            let prefetcher = Prefetcher(diskPrefetchingFor: pipeline)
            prefetcher.startPrefetching(with: [9])
            await gate.waitForStarts(1)

            // The cell appears while the bytes are still on their way.
            async let displayed = pipeline.fetcher.value(for: 9)
            let deadline = ContinuousClock.now + .seconds(20)
            // Wait until the value load has joined the byte load: two interests in key 9.
            while pipeline.dataFetcher.core.state.withLock({ $0.scheduler.interestCount(in: 9) }) < 2 {
                guard ContinuousClock.now < deadline else {
                    Issue.record("the display request never joined the prefetch")
                    break
                }
                await Task.yield()
            }
            gate.succeed(9, with: bytes(9))

            let value = try await displayed
            #expect(value == Decoded(text: "item 9"))
            #expect(fetches[9] == 1)
            #expect(gate.started == [9])
        }
    }

    @Test func aCorruptedEntryIsFetchedAgain() async throws {
        try await withDiskCache { disk, _ in
            let fetches = Counter()
            let pipeline = makePipeline(disk, fetches: fetches, decodes: Counter())
            try disk.store(bytes(4), forKey: 4)
            let url = disk.fileURL(forKey: "4")
            var file = try Data(contentsOf: url)
            file[file.count - 1] ^= 0xFF
            try file.write(to: url)

            let value = try await pipeline.fetcher.value(for: 4)

            #expect(value == Decoded(text: "item 4"))
            #expect(fetches[4] == 1)
            #expect(disk.corruptedEntriesDropped == 1)
            #expect(disk.data(forKey: 4) == bytes(4))
        }
    }

    @Test func aFailedDiskWriteStillDeliversTheBytes() async throws {
        try await withDiskCache { disk, directory in
            let pipeline = makePipeline(disk, fetches: Counter(), decodes: Counter())
            try FileManager.default.removeItem(at: directory)

            let value = try await pipeline.fetcher.value(for: 3)

            #expect(value == Decoded(text: "item 3"))
            #expect(pipeline.diskWriteFailures == 1)
        }
    }

    @Test func aDecodingErrorFailsTheValueButKeepsTheBytes() async throws {
        try await withDiskCache { disk, _ in
            let decodes = Counter()
            let pipeline = makePipeline(disk, fetches: Counter(), decodes: decodes) { _ in [0xFF, 0xFE] }

            await #expect(throws: NotText.self) { try await pipeline.fetcher.value(for: 8) }

            #expect(decodes[8] == 1)
            #expect(disk.data(forKey: 8) == [0xFF, 0xFE])
        }
    }

    @Test func theMemoryDestinationIsTheDefault() async throws {
        try await withDiskCache { disk, _ in
            let pipeline = makePipeline(disk, fetches: Counter(), decodes: Counter())
            let prefetcher = Prefetcher(fetcher: pipeline.fetcher)
            #expect(prefetcher.destination == .memory)

            prefetcher.startPrefetching(with: [1, 2])
            await waitUntilComplete(prefetcher, count: 2)

            #expect(pipeline.fetcher.fetchedData(for: 1) == Decoded(text: "item 1"))
            // The bytes went to disk on their way.
            #expect(disk.count == 2)
        }
    }

    @Test func aKeyDeletedFromDiskBehindTheCachesBackIsPrefetchedAgain() async throws {
        try await withDiskCache { disk, _ in
            // Given a key prefetched to disk, whose file someone else then deleted
            let fetches = Counter()
            let pipeline = makePipeline(disk, fetches: fetches, decodes: Counter())
            let first = Prefetcher(diskPrefetchingFor: pipeline)
            first.startPrefetching(with: [1])
            await waitUntilComplete(first, count: 1)
            try FileManager.default.removeItem(at: disk.fileURL(forKey: "1"))

            // When it is prefetched again
            let second = Prefetcher(diskPrefetchingFor: pipeline)
            second.startPrefetching(with: [1])
            await waitUntilComplete(second, count: 1)

            // Then it is fetched again rather than skipped, and is back on disk
            #expect(second.skippedCount == 0)
            #expect(fetches[1] == 2)
            #expect(disk.data(forKey: 1) == bytes(1))
        }
    }

    /// Holds every disk read until `release` is signalled (bounded, so that a
    /// failing test does not hang), signalling `entered` for each.
    final class ReadGate: Sendable {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)

        func hold(_ path: String) {
            entered.signal()
            if release.wait(timeout: .now() + 20) == .success { release.signal() }
        }
    }

    @Test func diskReadsRunOnThePipelinesDiskQueue() async throws {
        // Given a pipeline whose disk cache records where each read runs
        let onDiskQueue = LockedValue<[Bool]>([])
        let root = FileManager.default.temporaryDirectory
            .appending(path: "DataPipelineTests-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: root) }
        let disk = try DiskCache(
            directory: root.path(percentEncoded: false), sizeLimit: 1 << 20, trimRatio: 0.8,
            hooks: DiskCacheHooks(willReadFile: { _ in onDiskQueue.withLock { $0.append(DiskWorkQueue.isCurrent) } }))
        try disk.store(bytes(1), forKey: 1)
        let pipeline = makePipeline(disk, fetches: Counter(), decodes: Counter())

        // When a key on disk is loaded
        let value = try await pipeline.fetcher.value(for: 1)

        // Then the read ran on the disk queue, not on a thread of the cooperative pool
        #expect(value == Decoded(text: "item 1"))
        #expect(onDiskQueue.withLock { $0 } == [true])
        #expect(!DiskWorkQueue.isCurrent)
    }

    /// Real threads and a real pool: run alone, in the real-time pass
    /// (`LOOKAHEAD_REALTIME_TESTS=1 swift test --filter DataPipelineTests`), since
    /// CPU-bound suites running beside it can keep the probe off the pool too.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["LOOKAHEAD_REALTIME_TESTS"] != nil))
    func diskReadsDoNotHoldTheCooperativeThreadPool() async throws {
        // Given as many pipelines as the cooperative pool has threads, and one
        // more, each about to read a key from its disk cache held at a gate
        let width = ProcessInfo.processInfo.activeProcessorCount
        let gate = ReadGate()
        let root = FileManager.default.temporaryDirectory
            .appending(path: "DataPipelineTests-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: root) }
        var pipelines: [DataPipeline<Int, Decoded>] = []
        for index in 0...width {
            let disk = try DiskCache(
                directory: root.appending(path: "\(index)"), sizeLimit: 1 << 20, trimRatio: 0.8,
                hooks: DiskCacheHooks(willReadFile: gate.hold))
            try disk.store(bytes(index), forKey: 0)
            pipelines.append(makePipeline(disk, fetches: Counter(), decodes: Counter()))
        }

        // When they all load their key, and `width` of them are held reading
        let loads = pipelines.map { pipeline in
            Task { try await pipeline.dataFetcher.value(for: 0) }
        }
        let probeRan = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            Thread {
                var entered = 0
                while entered < width, gate.entered.wait(timeout: .now() + 20) == .success {
                    entered += 1
                }
                // Then a new task still gets a thread of the pool
                let probe = DispatchSemaphore(value: 0)
                Task.detached { probe.signal() }
                let ran = entered == width && probe.wait(timeout: .now() + 10) == .success
                gate.release.signal()
                continuation.resume(returning: ran)
            }.start()
        }
        #expect(probeRan, "disk reads blocked the cooperative pool (\(width) threads)")
        for (index, load) in loads.enumerated() {
            #expect(try await load.value == bytes(index))
        }
    }
}
