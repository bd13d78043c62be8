import Foundation
import Testing

@testable import Lookahead

/// A pipeline's byte loader learns the value load's context: its priority
/// (and the changes to it) and whether it is a prefetch.
@Suite(.timeLimit(.minutes(1)))
struct DataPipelineContextTests {
    /// Runs `body` with a pipeline over a fresh disk cache whose byte loads
    /// wait at `gate`, and the contexts they were given.
    private func withPipeline(
        _ body: (DataPipeline<Int, String>, LoadGate<Int, [UInt8]>, LoadContextTests.Seen) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory
            .appending(path: "DataPipelineContextTests-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let gate = LoadGate<Int, [UInt8]>()
        let seen = LoadContextTests.Seen()
        let pipeline = DataPipeline<Int, String>(
            diskCache: try DiskCache(directory: directory.path(percentEncoded: false)),
            fetchData: { key, context in
                seen.record(context)
                return try await gate.load(key)
            },
            decode: { _, bytes in String(decoding: bytes, as: UTF8.self) })
        try await body(pipeline, gate, seen)
    }

    @Test func aDisplayRequestsBytesAtItsPriorityAndMovesThem() async throws {
        try await withPipeline { pipeline, gate, seen in
            // Given a cell's request for a value at .high (the bytes were pinned at .normal)
            let request = pipeline.fetcher.fetchAsync(1, priority: .high) { _ in }
            await gate.waitForStarts(1)
            #expect(seen.contexts[0].priority == .high)
            #expect(!seen.contexts[0].isPrefetch)

            // When a fling carries the cell away
            request.priority = .low

            // Then the byte load heard it
            #expect(seen.heard == [.low])
            gate.succeed(1, with: Array("one".utf8))
            await pipeline.fetcher.waitUntilIdle()
            #expect(pipeline.fetcher.fetchedData(for: 1) == "one")
        }
    }

    @Test func aValuePrefetchIsAPrefetchToTheByteLoader() async throws {
        try await withPipeline { pipeline, gate, seen in
            // Given a value prefetched into memory through the pipeline
            let prefetcher = Prefetcher(fetcher: pipeline.fetcher)
            prefetcher.startPrefetching(with: [2])
            await gate.waitForStarts(1)

            // Then the byte loader is told it serves a prefetch (Low Data Mode may skip it)
            #expect(seen.contexts[0].isPrefetch)
            gate.succeed(2, with: Array("two".utf8))
            await pipeline.fetcher.waitUntilIdle()
        }
    }
}
