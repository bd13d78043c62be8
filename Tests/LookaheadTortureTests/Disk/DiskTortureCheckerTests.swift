import Foundation
import Testing

@testable import Lookahead
@testable import LookaheadTorture

/// The disk torture tool's logic without kills: the ledger's reading of the
/// child's lines, and the checker over directories crafted to be right or wrong.
@Suite(.timeLimit(.minutes(1)))
struct DiskTortureCheckerTests {
    private let keys = (0..<4).map(DiskTortureConfiguration.keyName)

    private func withDirectory(_ body: (String) throws -> Void) throws {
        let root = FileManager.default.temporaryDirectory.appending(
            path: "DiskTortureCheckerTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try body(root.appending(path: "cache").path(percentEncoded: false))
    }

    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    private func digest(_ text: String) -> String { DiskTortureLedger.digest(of: bytes(text)) }

    @Test func theLedgerAllowsTheCommittedAndTheInFlightContent() {
        var ledger = DiskTortureLedger(keyNames: keys)
        let output =
            "W key-0 \(digest("a"))\nC key-0\nW key-0 \(digest("b"))\nW key-1 \(digest("c"))\nC key-1\n"
            + "E \(DiskTortureLedger.fileName(forKey: "key-1"))\nD key-2\nC key-3"  // cut by the kill
        ledger.apply(output: Array(output.utf8))

        #expect(ledger.keys["key-0"]?.acceptable == [digest("a"), digest("b")])
        #expect(ledger.keys["key-0"]?.mustExist == true)
        #expect(ledger.keys["key-1"]?.acceptable == [digest("c")])
        #expect(ledger.keys["key-1"]?.mustExist == false)
        #expect(ledger.keys["key-2"]?.mustExist == false)
        #expect(ledger.committedStores == 2)
        #expect(ledger.evictions == 1)
        #expect(ledger.malformedLines == 0)
    }

    @Test func aDirectoryThatMatchesTheLedgerIsClean() throws {
        try withDirectory { directory in
            // Given a cache holding what the ledger says was committed
            let cache = try DiskCache(directory: directory, sizeLimit: 1 << 20, trimRatio: 0.8, hooks: DiskCacheHooks())
            try cache.store(bytes("a"), forKey: "key-0")
            try cache.store(bytes("b"), forKey: "key-1")
            var ledger = DiskTortureLedger(keyNames: keys)
            ledger.apply(output: Array("W key-0 \(digest("a"))\nC key-0\nW key-1 \(digest("b"))\nC key-1\n".utf8))

            // Then the check finds nothing, and the ledger now expects exactly that
            let findings = try DiskTortureChecker.check(
                directory: directory, ledger: &ledger, sizeLimit: 1 << 20, trimRatio: 0.8)
            #expect(findings == DiskTortureFindings())
            #expect(ledger.expectedLines() == "key-0 \(digest("a"))\nkey-1 \(digest("b"))\n")
        }
    }

    @Test func wrongCorruptAndMissingEntriesAreEachCounted() throws {
        try withDirectory { directory in
            // Given a ledger of three committed stores, and a directory where
            // key-0 holds other bytes, key-1's file is corrupted and key-2 is gone
            let cache = try DiskCache(directory: directory, sizeLimit: 1 << 20, trimRatio: 0.8, hooks: DiskCacheHooks())
            try cache.store(bytes("not a"), forKey: "key-0")
            try cache.store(bytes("b"), forKey: "key-1")
            let path = cache.filePath(forKey: "key-1")
            var file = try Data(contentsOf: URL(filePath: path))
            file[file.count - 1] ^= 1
            try file.write(to: URL(filePath: path))
            var ledger = DiskTortureLedger(keyNames: keys)
            for (key, text) in [("key-0", "a"), ("key-1", "b"), ("key-2", "c")] {
                ledger.apply(line: "W \(key) \(digest(text))")
                ledger.apply(line: "C \(key)")
            }

            // Then the check counts each
            let findings = try DiskTortureChecker.check(
                directory: directory, ledger: &ledger, sizeLimit: 1 << 20, trimRatio: 0.8)
            #expect(findings.wrongData == 1)
            #expect(findings.corruptReads == 1)
            #expect(findings.missingEntries == 2)
            #expect(findings.limitExceeded == 0)
        }
    }

    @Test(arguments: [1, 2, 3])
    func aChildRunThatIsNotKilledChecksClean(seed: UInt64) throws {
        try withDirectory { directory in
            // Given a child's seeded run of 300 operations, small enough to sweep often
            var configuration = DiskTortureConfiguration(kills: 1, seed: seed)
            configuration.keyCount = 16
            configuration.maxPayloadSize = 2048
            configuration.sizeLimit = 8 * 1024
            let lines = LockedValue("")
            try DiskTortureChild.run(
                configuration: configuration, directory: directory, expected: "", round: 0, operationLimit: 300
            ) { line in lines.withLock { $0 += line } }
            var ledger = DiskTortureLedger(keyNames: (0..<16).map(DiskTortureConfiguration.keyName))
            ledger.apply(output: Array(lines.withLock { $0 }.utf8))

            // Then it reported no violation, swept, and the directory checks clean
            #expect(ledger.childViolations.isEmpty, "seed \(seed)")
            #expect(ledger.malformedLines == 0, "seed \(seed)")
            #expect(ledger.evictions > 0, "seed \(seed)")
            let findings = try DiskTortureChecker.check(
                directory: directory, ledger: &ledger, sizeLimit: configuration.sizeLimit,
                trimRatio: configuration.trimRatio)
            #expect(findings == DiskTortureFindings(), "seed \(seed)")
        }
    }

    @Test func theConfigurationNamesTheValueOutOfRange() {
        #expect(throws: DiskTortureError.self) { try DiskTortureConfiguration(kills: 0, seed: 1).validate() }
        do {
            var configuration = DiskTortureConfiguration(kills: 10, seed: 1)
            configuration.maxRunMilliseconds = 0
            try configuration.validate()
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("maxRunMilliseconds"))
        }
    }
}
