// The check after each kill: a fresh cache opened on the directory must read
// back exactly what the ledger allows, and the directory must be within its limit.

import Lookahead

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one check of a cache directory found.
package struct DiskTortureFindings: Sendable, Equatable {
    /// Files dropped as corrupt: when the cache opened or when an entry was read.
    package var corruptReads = 0
    /// Reads that returned bytes the ledger does not allow for the key.
    package var wrongData = 0
    /// Committed entries, neither evicted nor removed, that read as misses.
    package var missingEntries = 0
    /// Whether the entries' files exceeded the size limit after the opening sweep.
    package var limitExceeded = 0
}

/// Opens a fresh ``DiskCache`` on a directory a killed child wrote, and checks
/// every key against a ``DiskTortureLedger``.
package enum DiskTortureChecker {
    /// Checks `directory` against `ledger`, then settles the ledger on what was found.
    ///
    /// - Throws: ``DiskTortureError/cannotOpen(_:)`` if the cache cannot be opened.
    package static func check(
        directory: String, ledger: inout DiskTortureLedger, sizeLimit: Int, trimRatio: Double
    ) throws(DiskTortureError) -> DiskTortureFindings {
        let evicted = LockedValue<[String]>([])
        let cache: DiskCache
        do {
            cache = try DiskCache(
                directory: directory, sizeLimit: sizeLimit, trimRatio: trimRatio,
                hooks: DiskCacheHooks(didSweep: { names in evicted.withLock { $0 += names } }))
        } catch {
            throw .cannotOpen("cannot open the cache in \(directory) for checking: \(error)")
        }
        for name in evicted.withLock({ $0 }) {
            ledger.evicted(fileName: name)
        }
        var findings = DiskTortureFindings()
        if entryBytes(in: directory) > sizeLimit { findings.limitExceeded += 1 }

        var found: [String: String?] = [:]
        for (key, state) in ledger.keys.sorted(by: { $0.key < $1.key }) {
            guard let bytes = cache.data(forKey: key) else {
                if state.mustExist { findings.missingEntries += 1 }
                found[key] = .some(nil)
                continue
            }
            let digest = DiskTortureLedger.digest(of: bytes)
            if !state.acceptable.contains(digest) { findings.wrongData += 1 }
            found[key] = digest
        }
        findings.corruptReads += cache.corruptedEntriesDropped
        ledger.settle(found: found)
        return findings
    }

    /// The total size of the entry files (named like a digest) in `directory`.
    package static func entryBytes(in directory: String) -> Int {
        guard let stream = opendir(directory) else { return 0 }
        defer { closedir(stream) }
        var total = 0
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(cString: bytes.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            guard name.utf8.count == 64, name.utf8.allSatisfy({ isHexDigit($0) }) else { continue }
            var status = stat()
            if lstat("\(directory)/\(name)", &status) == 0, status.st_mode & S_IFMT == S_IFREG {
                total += Int(status.st_size)
            }
        }
        return total
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
