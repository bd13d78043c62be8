import Foundation
import Testing

@testable import Lookahead

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The disk cache's safety: no file system work under its lock, an index that
/// does not go stale, temporary files of live writers left alone, owner-only
/// files in a real directory, and entries bound to their key.
@Suite(.timeLimit(.minutes(1)))
struct DiskCacheSafetyTests {
    private func fileSize(_ payloadSize: Int) -> Int {
        DiskCacheEntryFormat.headerSize + payloadSize
    }

    private func payload(_ text: String, repeating count: Int = 1) -> [UInt8] {
        Array(String(repeating: text, count: count).utf8)
    }

    /// Runs `body` with a fresh, empty directory under the temporary
    /// directory, and removes it afterwards.
    /// A cache in `root` filled to its limit with key0…key9 (10 bytes each),
    /// trimming to empty, whose first file deletion waits at the gate.
    private func makeFullCacheHeldAtItsFirstDeletion(in root: URL) throws -> (DiskCache, FirstCallGate) {
        let gate = FirstCallGate()
        let cache = try DiskCache(
            directory: root.appending(path: "cache"), sizeLimit: 10 * fileSize(10), trimRatio: 0,
            hooks: DiskCacheHooks(willRemoveFile: gate.hold))
        for key in 0..<10 {
            try cache.store(payload("\(key)", repeating: 10), forKey: "key\(key)")
        }
        return (cache, gate)
    }

    private func withTemporaryRoot(_ body: (URL) throws -> Void) throws {
        let root = FileManager.default.temporaryDirectory
            .appending(path: "DiskCacheSafetyTests-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try body(root)
    }

    /// Runs `body` with a cache in a fresh directory, checking the cache's
    /// invariants afterwards.
    private func withCache(sizeLimit: Int, _ body: (DiskCache, URL) async throws -> Void) async throws {
        let root = FileManager.default.temporaryDirectory
            .appending(path: "DiskCacheSafetyTests-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appending(path: "cache", directoryHint: .isDirectory)
        let cache = try DiskCache(directory: directory, sizeLimit: sizeLimit)
        try await body(cache, directory)
        cache.checkInvariants()
    }

    private func fileNames(in directory: URL) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: directory.path(percentEncoded: false)))
    }

    private func fileExists(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.path(percentEncoded: false))
    }

    /// A hook that holds the first file operation it sees until `release` is
    /// signalled, after signalling `entered`. Waits are bounded so that a
    /// failing test fails instead of hanging.
    final class FirstCallGate: Sendable {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        private let isFirst = LockedValue(true)

        func hold(_ path: String) {
            let first = isFirst.withLock { isFirst in
                defer { isFirst = false }
                return isFirst
            }
            guard first else { return }
            entered.signal()
            _ = release.wait(timeout: .now() + 20)
        }
    }

    /// Runs `body` on a thread of its own and returns whether it finished
    /// within `seconds`, and its result if it did.
    private func runOnThread<Result: Sendable>(
        within seconds: Double, _ body: @escaping @Sendable () -> Result
    ) -> Result? {
        let done = DispatchSemaphore(value: 0)
        let result = LockedValue<Result?>(nil)
        Thread {
            let value = body()
            result.withLock { $0 = value }
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return result.withLock { $0 }
    }

    // MARK: - Nothing blocks under the lock

    @Test func containsAnswersWhileASweepIsDeletingFiles() throws {
        try withTemporaryRoot { root in
            // Given a full cache that trims to empty, whose first file deletion is held
            let (cache, gate) = try makeFullCacheHeldAtItsFirstDeletion(in: root)

            // When a store sweeps, and is held deleting its first victim
            let stored = DispatchSemaphore(value: 0)
            Thread {
                try? cache.store(Data(repeating: 1, count: 10), forKey: "key10")
                stored.signal()
            }.start()
            try #require(gate.entered.wait(timeout: .now() + 10) == .success)

            // Then contains() answers from another thread meanwhile, with the sweep's outcome
            let answer = runOnThread(within: 5) { (cache.contains("key10"), cache.contains("key0")) }
            gate.release.signal()
            _ = stored.wait(timeout: .now() + 10)
            #expect(answer != nil, "contains() waited for the sweep's file deletions")
            #expect(answer?.0 == true)
            #expect(answer?.1 == false)
            #expect(cache.count == 1)
            cache.checkInvariants()
        }
    }

    @Test func containsAnswersWhileRemoveAllIsDeletingFiles() throws {
        try withTemporaryRoot { root in
            // Given a cache with entries, whose first file deletion is held
            let gate = FirstCallGate()
            let cache = try DiskCache(
                directory: root.appending(path: "cache"), sizeLimit: 1 << 20, trimRatio: 0.8,
                hooks: DiskCacheHooks(willRemoveFile: gate.hold))
            for key in 0..<10 {
                try cache.store(payload("\(key)"), forKey: "key\(key)")
            }

            // When removeAll() is held deleting its first file
            let removed = DispatchSemaphore(value: 0)
            Thread {
                try? cache.removeAll()
                removed.signal()
            }.start()
            try #require(gate.entered.wait(timeout: .now() + 10) == .success)

            // Then contains() answers meanwhile, and the removed entries are already gone
            let answer = runOnThread(within: 5) { cache.contains("key3") }
            gate.release.signal()
            _ = removed.wait(timeout: .now() + 10)
            #expect(answer != nil, "contains() waited for removeAll()'s file deletions")
            #expect(answer == false)
            #expect(cache.count == 0)
        }
    }

    @Test func aStoreOfAKeyBeingSweptIsNotDeletedByTheSweep() throws {
        try withTemporaryRoot { root in
            // Given a full cache whose sweep is held deleting its first victim, key0
            let (cache, gate) = try makeFullCacheHeldAtItsFirstDeletion(in: root)
            let sweeping = DispatchSemaphore(value: 0)
            Thread {
                try? cache.store(payload("s", repeating: 10), forKey: "key10")
                sweeping.signal()
            }.start()
            try #require(gate.entered.wait(timeout: .now() + 10) == .success)

            // When another thread stores key0 again meanwhile; it may not
            // rename its file into place before the held deletion is done,
            // which it is given a moment to do wrongly before the gate opens
            let storedAgain = DispatchSemaphore(value: 0)
            Thread {
                try? cache.store(payload("new", repeating: 3), forKey: "key0")
                storedAgain.signal()
            }.start()
            let finishedDuringTheDeletion = storedAgain.wait(timeout: .now() + 0.5) == .success
            gate.release.signal()
            _ = sweeping.wait(timeout: .now() + 10)
            if !finishedDuringTheDeletion { _ = storedAgain.wait(timeout: .now() + 10) }

            // Then the new entry survives the sweep and reads back
            #expect(!finishedDuringTheDeletion, "the store renamed over a file the sweep was deleting")
            #expect(cache.data(forKey: "key0") == payload("new", repeating: 3))
            #expect(cache.contains("key0"))
            cache.checkInvariants()
        }
    }

    // MARK: - A stale index

    @Test func containsIsFalseOnceTheFileIsDeletedBehindTheCachesBack() throws {
        try withTemporaryRoot { root in
            // Given an entry whose file someone else deleted
            let cache = try DiskCache(directory: root.appending(path: "cache"))
            try cache.store(payload("gone"), forKey: "key")
            try FileManager.default.removeItem(at: cache.fileURL(forKey: "key"))

            // Then the cache no longer claims it, and forgets it
            #expect(!cache.contains("key"))
            #expect(cache.count == 0)
            #expect(cache.totalSize == 0)
        }
    }

    // MARK: - Temporary files

    /// The process identifier of a process that has exited.
    private func deadProcessIdentifier() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(filePath: "/bin/sh")
        process.arguments = ["-c", "exit 0"]
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test func openingKeepsALiveWritersTemporaryFileAndDeletesADeadOnes() throws {
        try withTemporaryRoot { root in
            // Given a directory holding the temporary file of a write in flight in
            // a live process (this one), and one left by a process that died
            let directory = root.appending(path: "cache")
            _ = try DiskCache(directory: directory)
            let live = directory.appending(path: ".tmp-\(getpid())-1")
            try Data(payload("in flight")).write(to: live)
            let dead = directory.appending(path: ".tmp-\(try deadProcessIdentifier())-1")
            try Data(payload("abandoned")).write(to: dead)

            // When another cache opens the directory
            _ = try DiskCache(directory: directory)

            // Then the live writer's file is left alone and the dead one's is deleted
            #expect(fileExists(live))
            #expect(!fileExists(dead))
        }
    }

    // MARK: - Permissions and the directory

    @Test func entriesAreReadableAndWritableByTheOwnerOnly() throws {
        try withTemporaryRoot { root in
            let cache = try DiskCache(directory: root.appending(path: "cache"))
            try cache.store(payload("private"), forKey: "key")

            var status = stat()
            #expect(stat(cache.fileURL(forKey: "key").path(percentEncoded: false), &status) == 0)
            #expect(status.st_mode & 0o777 == 0o600)
        }
    }

    @Test func aSymbolicLinkAsTheDirectoryIsRefused() throws {
        try withTemporaryRoot { root in
            // Given a symbolic link to a real directory
            let real = root.appending(path: "real")
            try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
            let link = root.appending(path: "link")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)

            // Then opening a cache through the link fails
            do {
                _ = try DiskCache(directory: link)
                Issue.record("expected symbolicLink")
            } catch let error as DiskCacheError {
                guard case .symbolicLink(let path) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(path == link.path(percentEncoded: false))
                #expect(error.description.contains("symbolic link"))
            }
        }
    }

    // MARK: - Entries bound to their key

    @Test func anEntryCopiedOverAnothersNameReadsAsAMiss() throws {
        try withTemporaryRoot { root in
            // Given two entries, and A's file copied over B's
            let cache = try DiskCache(directory: root.appending(path: "cache"))
            try cache.store(payload("A"), forKey: "A")
            try cache.store(payload("B"), forKey: "B")
            let bytesOfA = try Data(contentsOf: cache.fileURL(forKey: "A"))
            try bytesOfA.write(to: cache.fileURL(forKey: "B"))

            // Then B reads as a miss, never as A's bytes, and A still reads
            #expect(cache.data(forKey: "B") == nil)
            #expect(cache.data(forKey: "A") == payload("A"))
            #expect(cache.corruptedEntriesDropped == 1)
        }
    }

    // MARK: - Concurrency

    @Test func concurrentReadersAndWritersStayConsistent() async throws {
        // Given a cache small enough that sweeps happen while tasks read and write
        let limit = 12_000
        try await withCache(sizeLimit: limit) { cache, directory in
            let keyCount = 24
            // Each key's payload is distinct (its own byte pattern and length).
            let payloads = (0..<keyCount).map { key in
                (0..<(100 + key * 97)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ key &* 7) }
            }
            let seed: UInt64 = 0xC0_CAC4E

            // When 8 tasks run 200 seeded random operations each
            let wrongReads = await withTaskGroup(of: Int.self) { group in
                for task in 0..<8 {
                    group.addTask {
                        var random = SeededRandom(seed: seed &+ UInt64(task))
                        var wrong = 0
                        for _ in 0..<200 {
                            let key = random.next(below: keyCount)
                            switch random.next(below: 100) {
                            case 0..<45:
                                if let data = cache.data(forKey: "key\(key)"), data != payloads[key] {
                                    wrong += 1
                                }
                            case 45..<85:
                                do {
                                    try cache.store(payloads[key], forKey: "key\(key)")
                                } catch {
                                    wrong += 1
                                }
                            case 85..<95:
                                cache.removeData(forKey: "key\(key)")
                            default:
                                _ = cache.contains("key\(key)")
                                _ = cache.totalSize
                            }
                        }
                        return wrong
                    }
                }
                return await group.reduce(0, +)
            }

            // Then every read returned nothing or the key's own bytes, no store failed,
            // and the index agrees with the directory
            #expect(wrongReads == 0, "seed \(seed)")
            #expect(cache.corruptedEntriesDropped == 0, "seed \(seed)")
            #expect(cache.totalSize <= limit, "seed \(seed)")
            let files = try fileNames(in: directory)
            #expect(!files.contains { $0.hasPrefix(".tmp-") }, "seed \(seed)")
            #expect(Set(cache.fileNamesByRecency()) == files, "seed \(seed)")
            var onDisk = 0
            for key in 0..<keyCount where cache.contains("key\(key)") {
                #expect(cache.data(forKey: "key\(key)") == payloads[key], "seed \(seed), key \(key)")
                onDisk += fileSize(payloads[key].count)
            }
            #expect(onDisk == cache.totalSize, "seed \(seed)")
        }
    }
}

/// The index alone: generations, trim targets, and sweeps in batches, which
/// keep the cache's lock holds short.
@Suite(.timeLimit(.minutes(1)))
struct DiskCacheIndexTests {
    @Test func theIndexDropsAnEntryOnlyIfNoStoreReplacedIt() {
        // Given an index whose entry was read at one generation, then stored again
        var index = DiskCacheIndex(sizeLimit: 1_000, trimRatio: 0.8)
        let digest = SHA256.hash("key")
        _ = index.store(digest, size: 100)
        let readGeneration = index.use(digest)!
        _ = index.store(digest, size: 200)

        // When the reader asks to drop what it read
        let dropped = index.remove(digest, ifGeneration: readGeneration)

        // Then the newer entry stays
        #expect(!dropped)
        #expect(index.contains(digest))
        #expect(index.totalSize == 200)
        index.checkInvariants()
    }

    @Test func theIndexTrimTargetIsClampedAtTheExtremes() {
        #expect(DiskCacheIndex(sizeLimit: .max, trimRatio: 1).trimTarget == .max)
        #expect(DiskCacheIndex(sizeLimit: 1_000, trimRatio: 0).trimTarget == 0)
        #expect(DiskCacheIndex(sizeLimit: 999, trimRatio: 0.5).trimTarget == 499)
    }

    @Test func aSweepEvictsInBatchesUntilTheTrimTarget() {
        // Given an index holding ten 10-byte entries at its limit, trimming to empty
        var index = DiskCacheIndex(sizeLimit: 100, trimRatio: 0)
        for key in 0..<10 {
            #expect(index.store(SHA256.hash("key\(key)"), size: 10).isEmpty)
        }

        // When an eleventh is stored, evicting at most four per batch
        let kept = SHA256.hash("key10")
        var batches = [index.store(kept, size: 10, evictingAtMost: 4)]
        while index.isSweeping {
            batches.append(index.sweep(keeping: kept, atMost: 4))
        }

        // Then the oldest go first, four at a time, and only the new entry stays
        #expect(batches.map(\.count) == [4, 4, 2])
        #expect(batches.joined().map(\.hexString) == (0..<10).map { SHA256.hash("key\($0)").hexString })
        #expect(index.count == 1)
        #expect(index.contains(kept))
        index.checkInvariants()
    }
}
