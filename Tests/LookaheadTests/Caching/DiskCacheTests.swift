import Foundation
import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1)))
struct DiskCacheTests {
    /// The size of an entry's file holding `payloadSize` bytes.
    func fileSize(_ payloadSize: Int) -> Int {
        DiskCacheEntryFormat.headerSize + payloadSize
    }

    /// Runs `body` with a fresh, empty directory (`root`) under the temporary
    /// directory, and removes it afterwards. The cache goes in `root/cache`, so
    /// the test can check that nothing else appears in `root`.
    func withTemporaryRoot<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
        let root = FileManager.default.temporaryDirectory
            .appending(path: "DiskCacheTests-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        return try await body(root)
    }

    /// Runs `body` with a cache in a fresh directory, checking the cache's
    /// invariants afterwards.
    func withCache(
        sizeLimit: Int = 1024 * 1024, trimRatio: Double = 0.8,
        _ body: (DiskCache, URL) async throws -> Void
    ) async throws {
        try await withTemporaryRoot { root in
            let directory = root.appending(path: "cache", directoryHint: .isDirectory)
            let cache = try DiskCache(directory: directory, sizeLimit: sizeLimit, trimRatio: trimRatio)
            try await body(cache, directory)
            cache.checkInvariants()
        }
    }

    func fileNames(in directory: URL) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: directory.path(percentEncoded: false)))
    }

    func fileExists(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.path(percentEncoded: false))
    }

    func payload(_ text: String, repeating count: Int = 1) -> [UInt8] {
        Array(String(repeating: text, count: count).utf8)
    }

    /// Replaces the contents of `url` with `transform` of them.
    func rewrite(_ url: URL, _ transform: (inout Data) -> Void) throws {
        var data = try Data(contentsOf: url)
        transform(&data)
        try data.write(to: url)
    }

    func setModificationDate(of url: URL, secondsSince1970 seconds: TimeInterval) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: seconds)], ofItemAtPath: url.path(percentEncoded: false))
    }

    func modificationDate(of url: URL) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: url.path(percentEncoded: false))[.modificationDate] as? Date
    }

    // MARK: - Round trip

    @Test func storedBytesReadBack() async throws {
        try await withCache { cache, directory in
            // Given an entry stored for a key
            let data = payload("hello, disk", repeating: 100)
            try cache.store(data, forKey: "https://example.com/image/1.png")

            // When it is read
            let read = cache.data(forKey: "https://example.com/image/1.png")

            // Then the same bytes come back, from one file named after the key's hash
            #expect(read == data)
            #expect(read?.startIndex == 0)
            #expect(cache.contains("https://example.com/image/1.png"))
            #expect(cache.count == 1)
            #expect(cache.totalSize == fileSize(data.count))
            let name = SHA256.hash("https://example.com/image/1.png").hexString
            #expect(try fileNames(in: directory) == [name])
            let attributes = try FileManager.default.attributesOfItem(
                atPath: directory.appending(path: name).path(percentEncoded: false))
            #expect((attributes[.size] as? NSNumber)?.intValue == fileSize(data.count))
        }
    }

    @Test func anEmptyPayloadRoundTrips() async throws {
        try await withCache { cache, _ in
            try cache.store([UInt8](), forKey: "empty")
            #expect(cache.data(forKey: "empty") == [])
            #expect(cache.totalSize == fileSize(0))
        }
    }

    @Test func aMissTouchesNothing() async throws {
        try await withCache { cache, directory in
            #expect(cache.data(forKey: "absent") == nil)
            #expect(!cache.contains("absent"))
            let files = try fileNames(in: directory)
            #expect(files.isEmpty)
        }
    }

    @Test func storingAgainReplacesTheEntry() async throws {
        try await withCache { cache, _ in
            // Given an entry
            try cache.store(payload("old", repeating: 10), forKey: "key")

            // When a new one is stored for the same key
            try cache.store(payload("new"), forKey: "key")

            // Then only the new one remains, and the size is the new one's
            #expect(cache.data(forKey: "key") == payload("new"))
            #expect(cache.count == 1)
            #expect(cache.totalSize == fileSize(3))
        }
    }

    @Test func describedKeysUseTheirDescription() async throws {
        try await withCache { cache, _ in
            // Given an entry stored under a URL
            let url = try #require(URL(string: "https://example.com/item/7.json"))
            try cache.store(payload("seven"), forKey: url)

            // Then it reads back under the URL and under its string
            #expect(cache.data(forKey: url) == payload("seven"))
            #expect(cache.data(forKey: "https://example.com/item/7.json") == payload("seven"))
            #expect(cache.contains(url))

            // And integer keys work too
            try cache.store(payload("42"), forKey: 42)
            #expect(cache.data(forKey: 42) == payload("42"))
            cache.removeData(forKey: 42)
            #expect(!cache.contains(42))
        }
    }

    // MARK: - Corruption

    /// Offsets into the magic, the version, the length, the checksum, and the payload.
    @Test(arguments: [0, 3, 5, 12, 16, 47, 48, 100, 147])
    func aFlippedByteReadsAsAMissAndTheFileIsDeleted(offset: Int) async throws {
        try await withCache { cache, _ in
            // Given an entry whose file has one byte flipped
            try cache.store(payload("x", repeating: 100), forKey: "key")
            let url = cache.fileURL(forKey: "key")
            try rewrite(url) { $0[offset] ^= 0x01 }

            // When it is read
            let read = cache.data(forKey: "key")

            // Then it is a miss, the file is gone, and the drop is counted
            #expect(read == nil)
            #expect(!fileExists(url))
            #expect(cache.corruptedEntriesDropped == 1)
            #expect(cache.count == 0)
            #expect(cache.totalSize == 0)
            #expect(cache.data(forKey: "key") == nil)
        }
    }

    @Test(arguments: [0, 10, 47, 48, 50, 147])
    func aTruncatedFileReadsAsAMiss(length: Int) async throws {
        try await withCache { cache, _ in
            // Given an entry whose file was cut short
            try cache.store(payload("y", repeating: 100), forKey: "key")
            let url = cache.fileURL(forKey: "key")
            try rewrite(url) { $0 = $0.prefix(length) }

            // When it is read
            let read = cache.data(forKey: "key")

            // Then it is a miss and the file is gone
            #expect(read == nil)
            #expect(!fileExists(url))
            #expect(cache.corruptedEntriesDropped == 1)
        }
    }

    @Test func bytesAppendedToAnEntryMakeItAMiss() async throws {
        try await withCache { cache, _ in
            try cache.store(payload("z", repeating: 10), forKey: "key")
            try rewrite(cache.fileURL(forKey: "key")) { $0.append(0) }

            #expect(cache.data(forKey: "key") == nil)
            #expect(cache.corruptedEntriesDropped == 1)
        }
    }

    @Test func aBadHeaderReadsAsAMiss() async throws {
        try await withCache { cache, _ in
            // Given an entry whose file was replaced by bytes of another format, of
            // the same length
            try cache.store(payload("w", repeating: 100), forKey: "key")
            let url = cache.fileURL(forKey: "key")
            try rewrite(url) { $0 = Data(repeating: 0x7F, count: $0.count) }

            // Then reading it is a miss and the file is gone
            #expect(cache.data(forKey: "key") == nil)
            #expect(!fileExists(url))
        }
    }

    @Test func theFormatRejectsAFutureVersionAndAWrongLength() throws {
        // Given a valid encoding
        let key = SHA256.hash("key")
        let file = DiskCacheEntryFormat.encode(payload("payload"), key: key)
        #expect(try DiskCacheEntryFormat.payload(of: file, key: key) == payload("payload"))

        // When the version is bumped, or the length field disagrees with the file
        var future = file
        future[7] = 3
        var longer = file
        longer[15] = 8

        // Then each is rejected for that reason
        #expect(throws: DiskCacheEntryFormat.Corruption.unsupportedVersion(3)) {
            try DiskCacheEntryFormat.payload(of: future, key: key)
        }
        #expect(throws: DiskCacheEntryFormat.Corruption.lengthMismatch(expected: 8, actual: 7)) {
            try DiskCacheEntryFormat.payload(of: longer, key: key)
        }
        #expect(throws: DiskCacheEntryFormat.Corruption.truncatedHeader) {
            try DiskCacheEntryFormat.payload(of: Array(file.prefix(79)), key: key)
        }
    }

    @Test func aFileDeletedBehindTheCachesBackIsForgotten() async throws {
        try await withCache { cache, _ in
            // Given an entry whose file someone else deleted
            try cache.store(payload("gone"), forKey: "key")
            try FileManager.default.removeItem(at: cache.fileURL(forKey: "key"))

            // Then reading it is a miss, the index forgets it, and it is not counted as corrupt
            #expect(cache.data(forKey: "key") == nil)
            #expect(cache.count == 0)
            #expect(cache.totalSize == 0)
            #expect(cache.corruptedEntriesDropped == 0)
        }
    }

    // MARK: - Size limit

    @Test func aSweepTrimsToTheRatioAndKeepsTheMostRecentlyUsed() async throws {
        // Given a cache that holds exactly ten 100-byte entries, trimming to half
        let limit = 10 * fileSize(100)
        try await withCache(sizeLimit: limit, trimRatio: 0.5) { cache, directory in
            for key in 0..<10 {
                try cache.store(payload("\(key % 10)", repeating: 100), forKey: "key\(key)")
            }
            #expect(cache.totalSize == limit)
            #expect(cache.count == 10)
            // and whose oldest entry was then read
            #expect(cache.data(forKey: "key0") != nil)

            // When an eleventh entry is stored
            try cache.store(payload("a", repeating: 100), forKey: "key10")

            // Then the least recently used entries were swept down to half the
            // limit, and the most recently used ones survive
            #expect(cache.totalSize == 5 * fileSize(100))
            #expect(cache.totalSize <= limit / 2)
            let survivors = ["key10", "key0", "key9", "key8", "key7"]
            #expect(cache.fileNamesByRecency() == survivors.map { SHA256.hash($0).hexString })
            for key in survivors {
                #expect(cache.data(forKey: key) != nil, "\(key) should survive")
            }
            for key in ["key1", "key2", "key3", "key4", "key5", "key6"] {
                #expect(cache.data(forKey: key) == nil, "\(key) should be swept")
                #expect(!fileExists(cache.fileURL(forKey: key)))
            }
            #expect(try fileNames(in: directory) == Set(survivors.map { SHA256.hash($0).hexString }))
        }
    }

    @Test func theSizeLimitHoldsAfterEveryStore() async throws {
        // Given a small cache
        let limit = 5_000
        try await withCache(sizeLimit: limit) { cache, directory in
            let seed: UInt64 = 0xD15C
            var random = SeededRandom(seed: seed)

            // When many entries of random sizes are stored
            for step in 0..<200 {
                let size = random.next(below: 1_500)
                try cache.store(Data(repeating: UInt8(step % 256), count: size), forKey: "key\(random.next(below: 40))")

                // Then the total never exceeds the limit, and matches the files
                #expect(cache.totalSize <= limit, "seed \(seed), step \(step)")
            }
            let files = try fileNames(in: directory)
            #expect(files.count == cache.count, "seed \(seed)")
            let onDisk = try files.reduce(0) { total, name in
                let attributes = try FileManager.default.attributesOfItem(
                    atPath: directory.appending(path: name).path(percentEncoded: false))
                return total + ((attributes[.size] as? NSNumber)?.intValue ?? 0)
            }
            #expect(onDisk == cache.totalSize, "seed \(seed)")
        }
    }

    @Test func anEntryOverTheLimitIsRejected() async throws {
        let limit = fileSize(100)
        try await withCache(sizeLimit: limit) { cache, directory in
            // Given a cache with an entry for the key
            try cache.store(payload("s"), forKey: "key")

            // When an entry whose file would exceed the limit is stored for it
            #expect(throws: DiskCacheError.self) {
                try cache.store(payload("L", repeating: 101), forKey: "key")
            }

            // Then nothing is stored, and the old entry is gone rather than stale
            #expect(cache.data(forKey: "key") == nil)
            #expect(cache.count == 0)
            #expect(try fileNames(in: directory).isEmpty)
        }
    }

    @Test func theTooLargeErrorSaysBySizeAndLimit() async throws {
        try await withCache(sizeLimit: 100) { cache, _ in
            do {
                try cache.store(payload("L", repeating: 100 - DiskCacheEntryFormat.headerSize + 1), forKey: "key")
                Issue.record("expected entryTooLarge")
            } catch let error as DiskCacheError {
                guard case .entryTooLarge(let size, let sizeLimit) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(size == 101)
                #expect(sizeLimit == 100)
                #expect(error.description.contains("101"))
            }
        }
    }

    @Test func anEntryExactlyAtTheLimitEvictsEverythingElse() async throws {
        let limit = fileSize(100)
        try await withCache(sizeLimit: limit) { cache, _ in
            // Given two small entries
            try cache.store(payload("a"), forKey: "a")
            try cache.store(payload("b"), forKey: "b")

            // When an entry exactly the size of the limit is stored
            try cache.store(payload("c", repeating: 100), forKey: "c")

            // Then it is kept even though it is over the trim target, alone
            #expect(cache.data(forKey: "c") == payload("c", repeating: 100))
            #expect(cache.count == 1)
            #expect(cache.totalSize == limit)
        }
    }

    // MARK: - Reopening

    @Test func reopeningTheDirectoryRebuildsTheIndex() async throws {
        try await withTemporaryRoot { root in
            // Given a cache with three entries of different sizes
            let directory = root.appending(path: "cache")
            let sizes = ["a": 10, "b": 200, "c": 3_000]
            do {
                let cache = try DiskCache(directory: directory)
                for (key, size) in sizes {
                    try cache.store(payload(key, repeating: size), forKey: key)
                }
            }

            // When the directory is opened again
            let reopened = try DiskCache(directory: directory)

            // Then every entry is there, with its size
            #expect(reopened.count == 3)
            #expect(reopened.totalSize == sizes.values.map(fileSize).reduce(0, +))
            for (key, size) in sizes {
                #expect(reopened.contains(key))
                #expect(reopened.data(forKey: key) == payload(key, repeating: size))
            }
            #expect(reopened.corruptedEntriesDropped == 0)
            reopened.checkInvariants()
        }
    }

    @Test func reopeningOrdersEntriesByModificationDate() async throws {
        try await withTemporaryRoot { root in
            // Given entries whose files were last modified in the order b, c, a
            let directory = root.appending(path: "cache")
            do {
                let cache = try DiskCache(directory: directory)
                for key in ["a", "b", "c"] {
                    try cache.store(payload(key, repeating: 100), forKey: key)
                }
                try setModificationDate(of: cache.fileURL(forKey: "b"), secondsSince1970: 1_000_000)
                try setModificationDate(of: cache.fileURL(forKey: "c"), secondsSince1970: 2_000_000)
                try setModificationDate(of: cache.fileURL(forKey: "a"), secondsSince1970: 3_000_000)
            }

            // When the directory is reopened with room for two entries only
            let reopened = try DiskCache(directory: directory, sizeLimit: 2 * fileSize(100), trimRatio: 1)

            // Then the least recently modified entry was swept, and the rest are in order
            #expect(reopened.fileNamesByRecency() == ["a", "c"].map { SHA256.hash($0).hexString })
            #expect(!reopened.contains("b"))
            #expect(!fileExists(reopened.fileURL(forKey: "b")))
        }
    }

    @Test func aReadRefreshesTheFilesModificationDate() async throws {
        try await withCache { cache, _ in
            // Given an entry whose file looks old
            try cache.store(payload("r"), forKey: "key")
            let url = cache.fileURL(forKey: "key")
            try setModificationDate(of: url, secondsSince1970: 1_000_000)

            // When it is read
            _ = cache.data(forKey: "key")

            // Then its modification date is recent, so a restart sees it as recently used
            let date = try #require(try modificationDate(of: url))
            #expect(date > Date(timeIntervalSince1970: 1_000_000_000))
        }
    }

    @Test func openingDeletesTemporaryAndShortFilesButLeavesOthersAlone() async throws {
        try await withTemporaryRoot { root in
            // Given a directory with an entry, a temporary file left by a crash, a
            // file named like an entry but too short to be one, and a foreign file
            let directory = root.appending(path: "cache")
            do {
                let cache = try DiskCache(directory: directory)
                try cache.store(payload("kept"), forKey: "kept")
            }
            let temporary = directory.appending(path: ".tmp-\(UUID().uuidString)")
            try Data(payload("half an entry")).write(to: temporary)
            let short = directory.appending(path: SHA256.hash("short").hexString)
            try Data(payload("LKDC")).write(to: short)
            let foreign = directory.appending(path: "README")
            try Data(payload("not ours")).write(to: foreign)

            // When it is opened
            let cache = try DiskCache(directory: directory)

            // Then the temporary and short files are gone, the entry is indexed,
            // and the foreign file is untouched and not counted
            #expect(!fileExists(temporary))
            #expect(!fileExists(short))
            #expect(fileExists(foreign))
            #expect(cache.count == 1)
            #expect(cache.totalSize == fileSize(4))
            #expect(cache.corruptedEntriesDropped == 1)
            #expect(cache.data(forKey: "kept") == payload("kept"))
        }
    }
}
