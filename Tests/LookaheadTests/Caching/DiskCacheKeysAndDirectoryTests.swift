import Foundation
import Testing

@testable import Lookahead

// The disk cache's keys, its directory and removal: more of its suite.

extension DiskCacheTests {
    // MARK: - Keys

    @Test func noKeyWritesOutsideTheDirectory() async throws {
        try await withTemporaryRoot { root in
            // Given a cache in root/cache, and what root holds beforehand
            let directory = root.appending(path: "cache")
            let cache = try DiskCache(directory: directory)
            let keys = [
                "../../etc/passwd", "../escape", "/abs/path", "/", "", ".", "..", "a/b/c", "nul\0byte", "\0",
                "é/ü/🙂/../..", String(repeating: "k", count: 10_000), String(repeating: "../", count: 1_000),
                "C:\\Windows\\system32", "~/.ssh/id_rsa",
            ]
            let rootBefore = try fileNames(in: root)

            // When an entry is stored for each crafted key
            for (offset, key) in keys.enumerated() {
                try cache.store(payload("entry \(offset)"), forKey: key)
            }

            // Then each reads back, the directory holds only one hash-named file
            // per key, and nothing appeared anywhere else
            for (offset, key) in keys.enumerated() {
                #expect(cache.data(forKey: key) == payload("entry \(offset)"), "key \(offset)")
            }
            let files = try fileNames(in: directory)
            #expect(files == Set(keys.map { SHA256.hash($0).hexString }))
            #expect(files.allSatisfy { SHA256.Digest(hexString: $0) != nil })
            #expect(try fileNames(in: root) == rootBefore)
            #expect(rootBefore == ["cache"])
            #expect(!fileExists(root.appending(path: "escape")))
            #expect(!fileExists(URL(filePath: "/abs/path")))
            let twoLevelsUp = directory.deletingLastPathComponent().deletingLastPathComponent()
            #expect(!fileExists(twoLevelsUp.appending(path: "etc/passwd")))
        }
    }

    // MARK: - Directory

    @Test func theDirectoryIsCreatedOwnerOnly() async throws {
        try await withTemporaryRoot { root in
            // Given a directory path whose parents do not exist either
            let directory = root.appending(path: "a/b/cache")

            // When a cache is opened there
            _ = try DiskCache(directory: directory)

            // Then the directory exists with permissions 0o700
            let attributes = try FileManager.default.attributesOfItem(atPath: directory.path(percentEncoded: false))
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
            #expect(attributes[.type] as? FileAttributeType == .typeDirectory)
        }
    }

    @Test func aFileWhereTheDirectoryShouldBeIsAnError() async throws {
        try await withTemporaryRoot { root in
            // Given a plain file at the cache's path
            let path = root.appending(path: "cache")
            try Data(payload("a file")).write(to: path)

            // Then opening a cache there fails, naming the path
            do {
                _ = try DiskCache(directory: path)
                Issue.record("expected notADirectory")
            } catch let error as DiskCacheError {
                guard case .notADirectory(let errorPath) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(errorPath == path.path(percentEncoded: false))
            }
        }
    }

    @Test func aDirectoryThatCannotBeCreatedIsAnError() async throws {
        try await withTemporaryRoot { root in
            // Given a plain file where a parent directory should be
            let file = root.appending(path: "file")
            try Data(payload("a file")).write(to: file)

            // Then opening a cache under it fails with the path and the system's error
            do {
                _ = try DiskCache(directory: file.appending(path: "cache"))
                Issue.record("expected cannotCreateDirectory")
            } catch let error as DiskCacheError {
                guard case .cannotCreateDirectory = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(error.path?.hasSuffix("file/cache") == true)
                #expect(error.underlyingError != nil)
            }
        }
    }

    @Test func aWriteThatFailsIsThrownNotCrashedOn() async throws {
        try await withCache { cache, directory in
            // Given a cache whose directory was removed from under it
            try cache.store(payload("before"), forKey: "before")
            try FileManager.default.removeItem(at: directory)

            // When an entry is stored
            do {
                try cache.store(payload("after"), forKey: "after")
                Issue.record("expected cannotWrite")
            } catch let error as DiskCacheError {
                // Then the failure is reported with its path and cause
                guard case .cannotWrite = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(error.path?.hasPrefix(directory.path(percentEncoded: false)) == true)
                #expect(error.underlyingError != nil)
            }

            // And reads are misses, and the index no longer counts the lost entry
            #expect(cache.data(forKey: "after") == nil)
            #expect(cache.data(forKey: "before") == nil)
            #expect(cache.count == 0)
        }
    }

    // MARK: - Removal

    @Test func removeDataDeletesTheEntry() async throws {
        try await withCache { cache, directory in
            try cache.store(payload("one"), forKey: "one")
            try cache.store(payload("two"), forKey: "two")

            cache.removeData(forKey: "one")
            cache.removeData(forKey: "never stored")

            #expect(cache.data(forKey: "one") == nil)
            #expect(cache.data(forKey: "two") == payload("two"))
            #expect(cache.count == 1)
            #expect(cache.totalSize == fileSize(3))
            #expect(try fileNames(in: directory) == [SHA256.hash("two").hexString])
        }
    }

    @Test func removeAllDeletesEveryEntry() async throws {
        try await withCache { cache, directory in
            // Given entries, an orphaned entry file the index does not know, and a foreign file
            for key in 0..<20 {
                try cache.store(payload("\(key)", repeating: key), forKey: "key\(key)")
            }
            try Data(payload("orphan")).write(to: directory.appending(path: SHA256.hash("orphan").hexString))
            try Data(payload("not ours")).write(to: directory.appending(path: "README"))

            // When everything is removed
            try cache.removeAll()

            // Then every entry file is gone, the totals are zero, and the cache still works
            #expect(try fileNames(in: directory) == ["README"])
            #expect(cache.count == 0)
            #expect(cache.totalSize == 0)
            #expect(cache.data(forKey: "key3") == nil)
            try cache.store(payload("again"), forKey: "key3")
            #expect(cache.data(forKey: "key3") == payload("again"))
        }
    }
}
