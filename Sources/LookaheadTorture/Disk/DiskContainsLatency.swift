// How long `DiskCache.contains` can wait while another thread sweeps: the
// `lookahead torture disk --measure-contains` measurement.

import Foundation
import Lookahead

/// The worst `contains()` latency seen on one thread while another thread's
/// store sweeps a full cache of small entries down to nothing.
public struct DiskContainsLatency: Sendable, Codable {
    /// The entries the sweep deletes.
    public var entries: Int
    /// How long the sweeping store took, in milliseconds.
    public var sweepMilliseconds: Double
    /// How many `contains()` calls ran while it did.
    public var containsCalls: Int
    /// The slowest of them, in milliseconds.
    public var worstContainsMilliseconds: Double

    /// Fills a cache in a temporary directory with `entries` entries, then
    /// stores one more, which sweeps them all (trim ratio 0), while a thread
    /// calls `contains()` in a loop and records its slowest call.
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

        struct Probe {
            var stop = false
            var calls = 0
            var worst: UInt64 = 0
        }
        let probe = LockedValue(Probe())
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            started.signal()
            var index = 0
            while !probe.withLock({ $0.stop }) {
                let start = DispatchTime.now().uptimeNanoseconds
                _ = cache.contains("key\(index % entries)")
                let elapsed = DispatchTime.now().uptimeNanoseconds - start
                probe.withLock { probe in
                    probe.calls += 1
                    probe.worst = max(probe.worst, elapsed)
                }
                index += 1
            }
            finished.signal()
        }.start()
        started.wait()
        let start = DispatchTime.now().uptimeNanoseconds
        try cache.store(payload, forKey: "sweeping store")
        let sweep = DispatchTime.now().uptimeNanoseconds - start
        probe.withLock { $0.stop = true }
        finished.wait()
        let result = probe.withLock { $0 }
        return DiskContainsLatency(
            entries: entries, sweepMilliseconds: Double(sweep) / 1e6, containsCalls: result.calls,
            worstContainsMilliseconds: Double(result.worst) / 1e6)
    }
}
