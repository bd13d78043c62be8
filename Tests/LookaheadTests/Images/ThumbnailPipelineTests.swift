import Dispatch
import Foundation
import LookaheadTestSupport
import Testing

@testable import Lookahead
@testable import LookaheadImages

/// Images for cells: charged to the memory cache by their decoded bytes,
/// decoded a slot per core, the most urgent first, off the cooperative pool.
@Suite(.queuedOnTheMainActor)
@MainActor
struct ThumbnailPipelineTests {
    /// A decoded image, as far as the tests care: its pixel size.
    struct Pixels: Sendable {
        let width: Int
        let height: Int
    }

    nonisolated static func decoded(width: Int, height: Int) -> DecodedImage<Pixels> {
        DecodedImage(
            image: Pixels(width: width, height: height), pixelWidth: width, pixelHeight: height, bytesPerRow: width * 4)
    }

    @Test func aGridOfFullSizePhotosStaysWithinItsByteBudget() {
        // Given a memory budget of 200 MiB for decoded images
        let budget = 200 << 20
        let cache = MemoryCache<Int, DecodedImage<Pixels>>(costLimit: budget, trimsOnMemoryPressure: false)

        // When a grid decodes 4,000 × 3,000 photos (48 MB each) into it
        for photo in 0..<100 { cache.setValue(Self.decoded(width: 4_000, height: 3_000), forKey: photo) }

        // Then it holds what fits — four, the most recent — and never more than the budget
        #expect(cache.totalCost <= budget)
        #expect(cache.count == 4)
        #expect(cache.value(forKey: 99) != nil)
        #expect(cache.value(forKey: 0) == nil)
        // And thumbnails for 120-point cells at 3x fit by the hundred
        let thumbnails = MemoryCache<Int, DecodedImage<Pixels>>(costLimit: budget, trimsOnMemoryPressure: false)
        for photo in 0..<300 { thumbnails.setValue(Self.decoded(width: 360, height: 360), forKey: photo) }
        #expect(thumbnails.count == 300)
        #expect(thumbnails.totalCost == 300 * 360 * 360 * 4)
    }

    @Test func theScheduleRunsASlotPerCoreTheMostUrgentFirst() {
        // Given two slots taken
        var schedule = DecodeSchedule(slots: 2)
        let started = [schedule.request(0, priority: .normal), schedule.request(1, priority: .normal)]
        #expect(started == [true, true])

        // When prefetches and a visible cell's decode wait, and one is withdrawn
        let queued = [
            schedule.request(2, priority: .low), schedule.request(3, priority: .normal),
            schedule.request(4, priority: .high), schedule.request(5, priority: .normal),
        ]
        #expect(queued == [false, false, false, false])
        let withdrawn = [schedule.withdraw(3), schedule.withdraw(3)]
        #expect(withdrawn == [true, false])

        // Then slots go to the visible cell's first, then in order within a priority, the withdrawn never
        let next = (0..<5).map { _ in schedule.finished() }
        #expect(next == [4, 5, 2, nil, nil])
        #expect(schedule.waitingCount == 0)
    }

    @Test func decodesRunOffThePoolNoMoreThanTheSlotsAtOnce() async throws {
        // Given a pipeline with two decode slots whose decoder waits until told, counting who decodes at once
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let inDecode = LockedValue((now: 0, most: 0))
        let release = DispatchSemaphore(value: 0)
        let pipeline = ThumbnailPipeline<Int, Pixels>(
            diskCache: try DiskCache(directory: directory), decodeSlots: 2, fetchData: { key, _ in [UInt8(key)] }
        ) { bytes in
            inDecode.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
            }
            release.wait()
            inDecode.withLock { $0.now -= 1 }
            return ThumbnailPipelineTests.decoded(width: Int(bytes[0]) + 1, height: 1)
        }

        // When eight images are asked for at once
        let loads = (0..<8).map { key in Task { try await pipeline.fetcher.value(for: key) } }
        await waitUntil("two decodes started") { inDecode.withLock { $0.now } == 2 }
        for _ in 0..<8 { release.signal() }
        var widths: [Int] = []
        for load in loads { widths.append(try await load.value.pixelWidth) }

        // Then all decoded, never more than two at once, and each charged by its decoded bytes
        #expect(widths == Array(1...8))
        let most = inDecode.withLock { $0.most }
        #expect(most == 2)
        #expect(pipeline.fetcher.memoryCache.totalCost == (1...8).reduce(0) { $0 + $1 * 4 })
    }

    @Test func aDecodeWithdrawnBeforeItsTurnNeverRuns() async throws {
        // Given one slot, held
        let queue = DecodeQueue(slots: 1)
        let release = DispatchSemaphore(value: 0)
        let ran = LockedValue<[Int]>([])
        let first = Task {
            try await queue.run(priority: .normal) {
                release.wait(); ran.withLock { $0.append(0) }
            }
        }
        await waitUntil("the first decode holds the slot") { queue.isBusy }

        // When a second waits and its caller is cancelled
        let second = Task { try await queue.run(priority: .high) { ran.withLock { $0.append(1) } } }
        await waitUntil("the second waits") { queue.waitingCount == 1 }
        second.cancel()
        await waitUntil("the second was withdrawn") { queue.waitingCount == 0 }
        release.signal()
        try await first.value

        // Then it never ran, and said so
        await #expect(throws: CancellationError.self) { try await second.value }
        let decoded = ran.withLock { $0 }
        #expect(decoded == [0])
    }
}
