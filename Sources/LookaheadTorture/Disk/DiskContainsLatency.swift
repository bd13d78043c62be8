// How long `DiskCache.contains` can wait while another thread sweeps: the
// `lookahead torture disk --measure-contains` measurement.

import Foundation
import Lookahead

/// The `contains()` latencies seen on one thread while another thread's
/// store sweeps a full cache of small entries down to nothing, and, as a
/// control, for as long again with no sweep running: on a loaded machine a
/// thread preempted mid-call sees a whole scheduler time slice, sweep or not.
public struct DiskContainsLatency: Sendable, Codable {
    /// The entries the sweep deletes.
    public var entries: Int
    /// How long the sweeping store took, in milliseconds.
    public var sweepMilliseconds: Double
    /// The calls while the sweep ran.
    public var duringSweep: Latencies
    /// The calls for as long again with no sweep.
    public var control: Latencies

    /// Latencies of a run of `contains()` calls.
    public struct Latencies: Sendable, Codable {
        /// How many calls ran.
        public var calls: Int
        /// The slowest, in milliseconds.
        public var worstMilliseconds: Double
        /// The 99.9th percentile, in milliseconds.
        public var p999Milliseconds: Double
        /// How many took over a millisecond.
        public var callsOver1Millisecond: Int

        init(nanoseconds: [UInt64]) {
            let sorted = nanoseconds.sorted()
            calls = sorted.count
            worstMilliseconds = Double(sorted.last ?? 0) / 1e6
            p999Milliseconds =
                sorted.isEmpty ? 0 : Double(sorted[min(sorted.count - 1, sorted.count * 999 / 1000)]) / 1e6
            callsOver1Millisecond = sorted.count { $0 > 1_000_000 }
        }

        /// One line for people.
        public var summary: String {
            "\(calls) calls, worst \(worstMilliseconds) ms, p99.9 \(p999Milliseconds) ms, \(callsOver1Millisecond) over 1 ms"
        }
    }

    /// Fills a cache in a temporary directory with `entries` entries, then
    /// stores one more, which sweeps them all (trim ratio 0), while a thread
    /// calls `contains()` in a loop; then runs the loop as long again alone.
    public static func measure(entries: Int) throws -> DiskContainsLatency {
        guard (1...1_000_000).contains(entries) else {
            throw DiskTortureError.invalid("--entries must be in 1...1000000, got \(entries)")
        }
        let root = FileManager.default.temporaryDirectory.appending(path: "lookahead-contains-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let payload = [UInt8](repeating: 7, count: 16)
        let fileSize = 80 + payload.count
        let cache = try DiskCache(
            directory: root.path(percentEncoded: false), sizeLimit: entries * fileSize, trimRatio: 0)
        for index in 0..<entries {
            try cache.store(payload, forKey: "key\(index)")
        }

        let stop = LockedValue(false)
        let latencies = LockedValue<[UInt64]>([])
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            started.signal()
            latencies.withLock { $0 = probe(cache, keys: entries, until: { stop.withLock { $0 } }) }
            finished.signal()
        }.start()
        started.wait()
        let start = DispatchTime.now().uptimeNanoseconds
        try cache.store(payload, forKey: "sweeping store")
        let sweep = DispatchTime.now().uptimeNanoseconds - start
        stop.withLock { $0 = true }
        finished.wait()

        let end = DispatchTime.now().uptimeNanoseconds + sweep
        let control = probe(cache, keys: entries, until: { DispatchTime.now().uptimeNanoseconds >= end })
        return DiskContainsLatency(
            entries: entries, sweepMilliseconds: Double(sweep) / 1e6,
            duringSweep: Latencies(nanoseconds: latencies.withLock { $0 }), control: Latencies(nanoseconds: control))
    }

    /// Calls `contains()` in a loop until `isDone`, returning each call's duration.
    private static func probe(_ cache: DiskCache, keys: Int, until isDone: () -> Bool) -> [UInt64] {
        var durations: [UInt64] = []
        var index = 0
        while !isDone() {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = cache.contains("key\(index % keys)")
            durations.append(DispatchTime.now().uptimeNanoseconds - start)
            index += 1
        }
        return durations
    }
}
