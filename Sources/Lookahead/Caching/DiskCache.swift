public import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A thread-safe cache of byte blobs on disk, one file per entry, that evicts the
/// least recently used entries once their files exceed a total size.
///
/// It is where the prefetcher's `.disk` destination puts raw response bytes: no
/// decoding, little memory, and the data survives a relaunch.
///
/// ## Files
///
/// Each entry is one file in ``directory`` named after the SHA-256 of the key's
/// UTF-8 bytes, as 64 lowercase hex digits. The key itself never becomes part of
/// a path, so no key (`../../etc/passwd`, `/`, a NUL byte, 10 KB of emoji) can
/// name a file outside the directory, and keys of any length map to names of one
/// length. The file holds a small header, with a SHA-256 checksum of the payload,
/// then the payload (see `DiskCacheEntryFormat`). A read checks the header and
/// the checksum; a corrupted, truncated or foreign file is deleted and reads as
/// a miss (counted by ``corruptedEntriesDropped``). Wrong bytes are never
/// returned.
///
/// A store writes a temporary file (`.tmp-<UUID>`) in the same directory, then
/// renames it over the entry's name. `rename(2)` within one file system is
/// atomic, so a reader sees the old entry or the new one, never a mix, and a
/// crash mid-write leaves only a temporary file, which the next
/// ``init(directory:sizeLimit:trimRatio:)`` deletes. Files are not `fsync`ed: a
/// cache may lose recent entries in a power cut, and the checksum turns a file
/// that did not fully reach the disk into a miss, so paying a flush per store
/// would buy nothing.
///
/// ## Size limit
///
/// Entries are charged the size of their file, header included. When a store
/// takes ``totalSize`` over ``sizeLimit``, a sweep deletes the least recently
/// used entries until the total is at most `sizeLimit * trimRatio`; trimming
/// below the limit batches the deletions instead of deleting a file on almost
/// every store. The entry just stored is never swept. An entry whose file would
/// exceed `sizeLimit` is not stored: ``store(_:forKey:)`` throws
/// ``DiskCacheError/entryTooLarge(size:sizeLimit:)``. Both reads and stores count
/// as uses.
///
/// The recency order lives in memory. A successful read also sets the file's
/// modification date to now, and ``init(directory:sizeLimit:trimRatio:)``
/// rebuilds the order from the modification dates, so it survives a restart
/// (to the file system's timestamp resolution).
///
/// ## Concurrency
///
/// All bookkeeping (sizes, recency, counters) sits behind one lock. Moving bytes,
/// the slow part, happens outside it: a store encodes and writes its temporary
/// file, and a read reads and verifies a file, without holding the lock. The
/// lock is held for the metadata calls that must stay in step with the index:
/// the rename that publishes a store, and the deletions of swept, removed and
/// corrupted entries. So the index and the directory always agree, and a
/// deletion can never hit a newer file that a concurrent store has just renamed
/// into place. A read that finds a bad file drops the entry only if no store
/// replaced it while the lock was released.
///
/// The methods are synchronous and block on disk I/O, like `FileManager`: call
/// them off the main thread.
///
/// One `DiskCache` should own a directory: two instances (in one process or
/// two) do not see each other's index, and each deletes stale temporary files
/// when it opens the directory.
public final class DiskCache: Sendable {
    /// The directory holding the entries.
    public let directory: URL
    /// The maximum total size of the entries' files, in bytes.
    public let sizeLimit: Int
    /// The fraction of ``sizeLimit`` a sweep trims the cache down to.
    public let trimRatio: Double

    private let state: LockedValue<State>

    private struct State {
        var index: DiskCacheIndex
        var corruptedEntriesDropped = 0
    }

    /// Opens the cache in `directory`, creating the directory if needed, and
    /// rebuilds the index from the files there.
    ///
    /// A missing directory is created, with any missing parents, readable and
    /// writable by its owner only (`0o700`): cached responses can be private. The
    /// permissions of an existing directory are left as they are. Temporary files
    /// left by a crash are deleted, and so are files too short to be an entry;
    /// every other entry is checked when it is first read. Files whose names are
    /// not entry names are left alone and not counted. If the entries exceed
    /// `sizeLimit` (say the limit was lowered), the least recently modified ones
    /// are swept.
    ///
    /// - Parameters:
    ///   - directory: A file URL of the directory to keep the entries in.
    ///   - sizeLimit: The maximum total size of the entries' files, in bytes,
    ///     headers included. Defaults to 100 MiB.
    ///   - trimRatio: The fraction of `sizeLimit` a sweep trims down to, in `0...1`.
    /// - Throws: ``DiskCacheError/notADirectory(path:)`` if `directory` exists
    ///   and is not a directory, ``DiskCacheError/cannotCreateDirectory(path:underlyingError:)``
    ///   or ``DiskCacheError/cannotReadDirectory(path:underlyingError:)``.
    /// - Complexity: O(n log n) in the number of files in the directory.
    public init(directory: URL, sizeLimit: Int = 100 * 1024 * 1024, trimRatio: Double = 0.8) throws {
        precondition(directory.isFileURL, "DiskCache needs a file URL, got \(directory)")
        var index = DiskCacheIndex(sizeLimit: sizeLimit, trimRatio: trimRatio)
        self.directory = directory
        self.sizeLimit = sizeLimit
        self.trimRatio = trimRatio

        try Self.prepareDirectory(directory)
        let scan = try Self.scanDirectory(directory)
        for file in scan.entries {
            index.restore(file.digest, size: file.size)
        }
        for digest in index.sweep(keeping: nil) {
            try? Self.removeFile(at: Self.fileURL(for: digest, in: directory))
        }
        state = LockedValue(State(index: index, corruptedEntriesDropped: scan.corruptedEntriesDropped))
    }

    // MARK: - Reading

    /// Returns the bytes stored for `key` and makes it the most recently used
    /// entry, or returns `nil` if there are none.
    ///
    /// A file that is corrupted or truncated is deleted and reads as a miss, as
    /// does a file that cannot be read at all (the error is not reported: a
    /// cache that cannot serve a read simply misses). A miss on a key the index
    /// does not hold touches no file.
    ///
    /// - Complexity: O(k + n), where k is the length of the key in bytes and n
    ///   the size of the entry: the key is hashed, the file read and checksummed.
    public func data(forKey key: String) -> Data? {
        let digest = SHA256.hash(key)
        guard let generation = state.withLock({ $0.index.use(digest) }) else { return nil }
        let url = fileURL(for: digest)
        let file: Data
        do {
            file = try Data(contentsOf: url)
        } catch {
            if Self.isNoSuchFile(error) {
                // Deleted behind the cache's back: forget it.
                state.withLock { _ = $0.index.remove(digest, ifGeneration: generation) }
            }
            return nil
        }
        guard let payload = try? DiskCacheEntryFormat.payload(of: file) else {
            dropCorruptedEntry(digest, generation: generation, at: url)
            return nil
        }
        // So that the recency order survives a restart. Best effort: a failure
        // only makes the entry look older to the next process.
        url.withUnsafeFileSystemRepresentation { path in
            if let path { _ = utimes(path, nil) }
        }
        return payload
    }

    /// Returns whether the cache holds an entry for `key`, without reading it or
    /// changing the recency order.
    ///
    /// The file is not checked: an entry that turns out to be corrupted still
    /// counts until a read drops it.
    ///
    /// - Complexity: O(k), where k is the length of the key in bytes.
    public func contains(_ key: String) -> Bool {
        let digest = SHA256.hash(key)
        return state.withLock { $0.index.contains(digest) }
    }

    // MARK: - Writing

    /// Stores `data` for `key` as the most recently used entry, replacing any
    /// entry already stored for it, then sweeps if the cache is over its limit.
    ///
    /// The entry is written to a temporary file and renamed into place, so a
    /// concurrent reader, or the next process after a crash, sees the old entry
    /// or the new one, never part of one.
    ///
    /// - Parameters:
    ///   - data: The bytes to store.
    ///   - key: The key to store them under.
    /// - Throws: ``DiskCacheError/entryTooLarge(size:sizeLimit:)`` if the
    ///   entry's file (`data` plus a 48-byte header) would exceed ``sizeLimit``;
    ///   then any entry already stored for `key` is removed, so it is never
    ///   returned as if it were current. ``DiskCacheError/cannotWrite(path:underlyingError:)``
    ///   if the file cannot be written (a full disk, say) or moved into place;
    ///   then any earlier entry for `key` is left as it was.
    /// - Complexity: O(k + n), where k is the length of the key and n the size
    ///   of `data`, plus O(1) file deletion for each entry swept.
    public func store(_ data: Data, forKey key: String) throws {
        let digest = SHA256.hash(key)
        let size = DiskCacheEntryFormat.fileSize(forPayloadSize: data.count)
        guard size <= sizeLimit else {
            removeEntry(digest)
            throw DiskCacheError.entryTooLarge(size: size, sizeLimit: sizeLimit)
        }

        let temporaryURL = directory.appending(path: "\(Self.temporaryPrefix)\(UUID().uuidString)")
        do {
            try DiskCacheEntryFormat.encode(data).write(to: temporaryURL, options: .withoutOverwriting)
        } catch {
            try? Self.removeFile(at: temporaryURL)
            throw DiskCacheError.cannotWrite(path: temporaryURL.path(percentEncoded: false), underlyingError: error)
        }

        let url = fileURL(for: digest)
        try state.withLock { (state) throws(DiskCacheError) in
            do {
                try Self.renameFile(at: temporaryURL, to: url)
            } catch {
                try? Self.removeFile(at: temporaryURL)
                throw DiskCacheError.cannotWrite(path: url.path(percentEncoded: false), underlyingError: error)
            }
            for victim in state.index.store(digest, size: size) {
                // Best effort: a file that cannot be deleted is forgotten by the
                // index (it was evicted) and found again by the next process.
                try? Self.removeFile(at: fileURL(for: victim))
            }
        }
    }

    /// Removes the entry for `key`, if there is one.
    ///
    /// The entry is gone from this cache even if its file cannot be deleted
    /// (an I/O error, a read-only file system); such a file is found again by
    /// the next process that opens the directory.
    ///
    /// - Complexity: O(k), where k is the length of the key, plus one file deletion.
    public func removeData(forKey key: String) {
        removeEntry(SHA256.hash(key))
    }

    /// Removes every entry.
    ///
    /// Deletes every file in the directory named like an entry, including any
    /// left behind by an earlier failure to delete. Temporary files are left to
    /// the stores writing them. Files that cannot be deleted stay in the cache,
    /// and the first such failure is thrown once the others are deleted.
    ///
    /// - Throws: ``DiskCacheError/cannotRemove(path:underlyingError:)`` or
    ///   ``DiskCacheError/cannotReadDirectory(path:underlyingError:)``.
    /// - Complexity: O(n) in the number of files in the directory.
    public func removeAll() throws {
        try state.withLock { (state) throws(DiskCacheError) in
            var firstError: DiskCacheError?
            var digests = Set(state.index.entries.keys)
            do {
                let names = try FileManager.default.contentsOfDirectory(atPath: directory.path(percentEncoded: false))
                digests.formUnion(names.lazy.compactMap { SHA256.Digest(hexString: $0) })
            } catch {
                firstError = .cannotReadDirectory(path: directory.path(percentEncoded: false), underlyingError: error)
            }
            var kept = Set<SHA256.Digest>()
            for digest in digests {
                do throws(DiskCacheError) {
                    try Self.removeFile(at: fileURL(for: digest))
                } catch {
                    kept.insert(digest)
                    firstError = firstError ?? error
                }
            }
            state.index.removeAll(except: kept)
            if let firstError { throw firstError }
        }
    }

    // MARK: - Statistics

    /// The total size of the entries' files in bytes, headers included.
    ///
    /// - Complexity: O(1).
    public var totalSize: Int {
        state.withLock { $0.index.totalSize }
    }

    /// The number of entries.
    ///
    /// - Complexity: O(1).
    public var count: Int {
        state.withLock { $0.index.count }
    }

    /// How many entries were found corrupted or truncated, and deleted, since
    /// the cache was opened (including while it was opened).
    ///
    /// - Complexity: O(1).
    public var corruptedEntriesDropped: Int {
        state.withLock { $0.corruptedEntriesDropped }
    }

    // MARK: - Test hooks

    /// The file that holds, or would hold, the entry for `key`.
    package func fileURL(forKey key: String) -> URL {
        fileURL(for: SHA256.hash(key))
    }

    /// The entries' file names (their key digests in hex), most recently used first.
    ///
    /// - Complexity: O(n).
    package func fileNamesByRecency() -> [String] {
        state.withLock { $0.index.digestsByRecency().map(\.hexString) }
    }

    /// Stops the program if the index's invariants do not hold.
    ///
    /// - Complexity: O(n).
    package func checkInvariants() {
        state.withLock { $0.index.checkInvariants() }
    }

    // MARK: - Implementation

    private static let temporaryPrefix = ".tmp-"

    private func fileURL(for digest: SHA256.Digest) -> URL {
        Self.fileURL(for: digest, in: directory)
    }

    private static func fileURL(for digest: SHA256.Digest, in directory: URL) -> URL {
        directory.appending(path: digest.hexString, directoryHint: .notDirectory)
    }

    /// Removes `digest`'s entry from the index and deletes its file, which is
    /// attempted even if the index does not hold it, in case an earlier deletion failed.
    private func removeEntry(_ digest: SHA256.Digest) {
        state.withLock { state in
            _ = state.index.remove(digest)
            try? Self.removeFile(at: fileURL(for: digest))
        }
    }

    /// Deletes a file that failed verification, unless a store replaced it since
    /// it was read (the index's generation for it changed).
    private func dropCorruptedEntry(_ digest: SHA256.Digest, generation: DiskCacheIndex.Generation, at url: URL) {
        state.withLock { state in
            guard state.index.remove(digest, ifGeneration: generation) else { return }
            state.corruptedEntriesDropped += 1
            try? Self.removeFile(at: url)
        }
    }

    /// Creates `directory` with owner-only permissions if it does not exist.
    private static func prepareDirectory(_ directory: URL) throws(DiskCacheError) {
        let path = directory.path(percentEncoded: false)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .notADirectory(path: path) }
            return
        }
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotCreateDirectory(path: path, underlyingError: error)
        }
    }

    private struct Scan {
        /// The entries found, least recently modified first.
        var entries: [(digest: SHA256.Digest, size: Int)] = []
        var corruptedEntriesDropped = 0
    }

    /// Lists the entries in `directory`, least recently modified first, deleting
    /// temporary files and files too short to hold an entry on the way.
    private static func scanDirectory(_ directory: URL) throws(DiskCacheError) -> Scan {
        let keys: [URLResourceKey] = [.isRegularFileKey, .fileSizeKey, .contentModificationDateKey]
        let urls: [URL]
        do {
            urls = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)
        } catch {
            throw .cannotReadDirectory(path: directory.path(percentEncoded: false), underlyingError: error)
        }
        var scan = Scan()
        var found: [(digest: SHA256.Digest, size: Int, modified: Date)] = []
        for url in urls {
            let name = url.lastPathComponent
            if name.hasPrefix(temporaryPrefix) {
                try? removeFile(at: url)
                continue
            }
            guard let digest = SHA256.Digest(hexString: name),
                let values = try? url.resourceValues(forKeys: Set(keys)),
                values.isRegularFile == true, let size = values.fileSize
            else { continue }
            guard size >= DiskCacheEntryFormat.headerSize else {
                try? removeFile(at: url)
                scan.corruptedEntriesDropped += 1
                continue
            }
            found.append((digest, size, values.contentModificationDate ?? .distantPast))
        }
        // Ties (timestamps are coarse) are broken by name, so the order is deterministic.
        found.sort { ($0.modified, $0.digest.hexString) < ($1.modified, $1.digest.hexString) }
        scan.entries = found.map { ($0.digest, $0.size) }
        return scan
    }

    /// Renames a file over another, replacing it atomically. `rename(2)` rather
    /// than `FileManager.moveItem`, which fails when the destination exists on Linux.
    private static func renameFile(at source: URL, to destination: URL) throws(POSIXError) {
        let code = source.withUnsafeFileSystemRepresentation { source in
            destination.withUnsafeFileSystemRepresentation { destination in
                guard let source, let destination else { return EINVAL }
                return rename(source, destination) == 0 ? 0 : errno
            }
        }
        if code != 0 { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO) }
    }

    /// Deletes a file; one that is already gone is not an error.
    private static func removeFile(at url: URL) throws(DiskCacheError) {
        let code = url.withUnsafeFileSystemRepresentation { path in
            guard let path else { return EINVAL }
            return unlink(path) == 0 || errno == ENOENT ? 0 : errno
        }
        if code != 0 {
            throw .cannotRemove(
                path: url.path(percentEncoded: false),
                underlyingError: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
        }
    }

    private static func isNoSuchFile(_ error: any Error) -> Bool {
        if let error = error as? CocoaError {
            return error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile
        }
        if let error = error as? POSIXError {
            return error.code == .ENOENT
        }
        return false
    }
}
