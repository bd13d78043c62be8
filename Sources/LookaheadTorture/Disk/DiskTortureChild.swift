// The child side of `lookahead torture disk`: stores, reads, removes and
// sweeps a cache until it is killed, reporting each step on standard output.

import Lookahead

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process the parent kills: a seeded random mix of operations on a
/// ``DiskCache``, each reported as a ``DiskTortureLedger`` line on standard
/// output, and its own reads checked against its own ledger.
package enum DiskTortureChild {
    /// Runs operations until the process is killed, or until `operationLimit`
    /// operations are done (for tests).
    ///
    /// - Parameters:
    ///   - directory: the cache directory.
    ///   - expected: what is on disk at the start, as ``DiskTortureLedger/expectedLines()`` wrote it.
    ///   - round: the kill round, which with the seed picks this child's operations.
    ///   - output: where each line goes, one call per line.
    package static func run(
        configuration: DiskTortureConfiguration, directory: String, expected: String, round: Int,
        operationLimit: Int = .max, output: @escaping @Sendable (String) -> Void
    ) throws {
        let keyNames = (0..<configuration.keyCount).map(DiskTortureConfiguration.keyName)
        var ledger = DiskTortureLedger(keyNames: keyNames)
        ledger.load(expectedLines: expected)
        let evictions = LockedValue<[String]>([])
        let cache = try DiskCache(
            directory: directory, sizeLimit: configuration.sizeLimit, trimRatio: configuration.trimRatio,
            hooks: DiskCacheHooks(didSweep: { names in
                for name in names { output("E \(name)\n") }
                evictions.withLock { $0 += names }
            }))
        var random = TortureRandom(seed: configuration.seed, stream: UInt64(round), substream: 1)
        var corruptSeen = cache.corruptedEntriesDropped
        if corruptSeen > 0 { output("V corrupt open\n") }

        func report(_ line: String) {
            output(line + "\n")
            ledger.apply(line: line)
        }
        func drainEvictions() {
            for name in evictions.withLock({ names in
                defer { names = [] }; return names
            }) {
                ledger.evicted(fileName: name)
            }
        }
        drainEvictions()

        var operation = 0
        while operation < operationLimit {
            operation += 1
            let key = keyNames[random.next(below: keyNames.count)]
            let choice = random.next(below: 100)
            if choice < 60 {
                let bytes = randomBytes(count: random.next(below: configuration.maxPayloadSize + 1), &random)
                report("W \(key) \(DiskTortureLedger.digest(of: bytes))")
                do {
                    try cache.store(bytes, forKey: key)
                    drainEvictions()
                    report("C \(key)")
                } catch {
                    drainEvictions()
                    report("F \(key)")
                }
                let onDisk = DiskTortureChecker.entryBytes(in: directory)
                if onDisk > configuration.sizeLimit { report("L \(onDisk)") }
            } else if choice < 90 {
                let state = ledger.keys[key]!
                if let bytes = cache.data(forKey: key) {
                    if !state.acceptable.contains(DiskTortureLedger.digest(of: bytes)) { report("V wrong \(key)") }
                } else if state.mustExist {
                    report("V missing \(key)")
                }
            } else if choice < 96 {
                report("D \(key)")
                cache.removeData(forKey: key)
            } else if !cache.contains(key), ledger.keys[key]!.mustExist {
                report("V missing \(key)")
            }
            let corrupt = cache.corruptedEntriesDropped
            if corrupt > corruptSeen {
                corruptSeen = corrupt
                report("V corrupt \(key)")
            }
        }
    }

    private static func randomBytes(count: Int, _ random: inout TortureRandom) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 8)
        while bytes.count < count {
            withUnsafeBytes(of: random.next()) { bytes.append(contentsOf: $0) }
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Writes `line` to standard output with one `write(2)`, so that a kill
    /// never interleaves or buffers it.
    package static func writeToStandardOutput(_ line: String) {
        var line = line
        line.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
