// The disk cache: one file per entry, least recently used evicted past a size
// limit. Decisions are made under one lock; renames, deletions and reads
// happen outside it.

import Dispatch

/// A thread-safe cache of byte blobs on disk, one file per entry, that evicts the
/// least recently used entries once their files exceed a total size.
///
/// It is where the prefetcher's `.disk` destination puts raw response bytes: no
/// decoding, little memory, and the data survives a relaunch. Its interface is
/// paths (`String`) and bytes (`[UInt8]`, or any collection of bytes such as
/// `Data` when storing), so `import Lookahead` does not bring in Foundation.
///
/// ## Files
///
/// Each entry is one file in ``directory`` named after the SHA-256 of the key's
/// UTF-8 bytes, as 64 lowercase hex digits. The key itself never becomes part of
/// a path, so no key (`../../etc/passwd`, `/`, a NUL byte, 10 KB of emoji) can
/// name a file outside the directory, and keys of any length map to names of one
/// length. The file holds a small header, with the key's digest and a SHA-256
/// checksum of the payload, then the payload (see `DiskCacheEntryFormat`). A read
/// checks the header, the key and the checksum; a corrupted, truncated or foreign
/// file, or one copied under another entry's name, is deleted and reads as a
/// miss (counted by ``corruptedEntriesDropped``). Wrong bytes are never returned.
///
/// Files are created readable and writable by their owner only (`0o600`), in a
/// directory created `0o700`; the directory may not be a symbolic link, and
/// entries are opened without following links.
///
/// ## Crashes
///
/// A store writes a temporary file (`.tmp-<pid>-<n>-<random>`) in the same
/// directory, then renames it over the entry's name. `rename(2)` within one file
/// system is atomic, so a reader sees the old entry or the new one, never a mix,
/// and a process killed mid-write (even by `SIGKILL`) leaves at most a temporary
/// file. ``init(directory:sizeLimit:trimRatio:)`` deletes the temporary files of
/// writers that are gone: those whose process no longer exists, or older than a
/// day (a reused process identifier); a live process's write in flight is left
/// alone. Files are not `fsync`ed: a killed process loses nothing the kernel
/// already has, and after a power cut the checksum turns a file that did not
/// fully reach the disk into a miss, so a flush per store would buy nothing a
/// cache needs.
///
/// ## Size limit
///
/// Entries are charged the size of their file, header included. When a store
/// takes ``totalSize`` over ``sizeLimit``, a sweep deletes the least recently
/// used entries until the total is at most `sizeLimit * trimRatio`; trimming
/// below the limit batches the deletions instead of deleting a file on almost
/// every store. The entry just stored is never swept. An entry whose file would
/// exceed `sizeLimit` is not stored: `store(_:forKey:)` throws
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
/// All bookkeeping (sizes, recency, counters) sits behind one lock, which is
/// never held across a system call: `contains(_:)` (asked on the main thread
/// by `Prefetcher.startPrefetching(with:)`) waits at most for another thread's
/// bookkeeping, never for a sweep deleting thousands of files. Each operation
/// decides under the lock (a sweep picks its victims and removes them from the
/// index), then renames, deletes and reads outside it. An entry whose file is
/// being renamed or deleted is marked busy meanwhile; a store or removal of
/// the same key waits for that one file operation, so a deletion can never
/// hit a newer file that a concurrent store has just renamed into place. A read
/// that finds a bad file drops the entry only if no store replaced it meanwhile.
///
/// The methods are synchronous and block on disk I/O, like `FileManager`: call
/// them off the main thread, except `contains(_:)`, which costs one `lstat`
/// of the entry's file.
///
/// ## Processes
///
/// One process writes a directory. An app and its extension that share a
/// cache should let one of them store and remove, and have the other open its
/// own `DiskCache` on the directory read-only in effect: reads verify every
/// file, `contains(_:)` checks that the file still exists, and a file the
/// writer swept reads as a miss, so a reader never sees wrong bytes. The size
/// limit is held by the writer's index alone: two writers would each count
/// only their own entries and together exceed it. The cache does not take a
/// lock file to enforce this; it only keeps out of another live process's
/// temporary files.
public final class DiskCache: Sendable {
    /// The path of the directory holding the entries.
    public let directory: String
    /// The maximum total size of the entries' files, in bytes.
    public let sizeLimit: Int
    /// The fraction of ``sizeLimit`` a sweep trims the cache down to.
    public let trimRatio: Double

    private let state: LockedValue<State>
    private let hooks: DiskCacheHooks

    private struct State {
        var index: DiskCacheIndex
        var corruptedEntriesDropped = 0
        /// Entries whose file is being renamed into place or deleted outside
        /// the lock, each with the semaphore signalled once that is done.
        var busy: [SHA256.Digest: DispatchSemaphore] = [:]
    }

    /// Opens the cache in the directory at `directory`, creating it if needed,
    /// and rebuilds the index from the files there.
    ///
    /// A missing directory is created, with any missing parents, readable and
    /// writable by its owner only (`0o700`): cached responses can be private. The
    /// permissions of an existing directory are left as they are; a symbolic
    /// link is refused. Temporary files of writers that are gone are deleted
    /// (see *Crashes* above), and so are files too short to be an entry; every
    /// other entry is checked when it is first read. Files whose names are not
    /// entry names are left alone and not counted. If the entries exceed
    /// `sizeLimit` (say the limit was lowered), the least recently modified ones
    /// are swept.
    ///
    /// - Parameters:
    ///   - directory: The path of the directory to keep the entries in, such as
    ///     `FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
    ///     .appending(path: "Thumbnails").path(percentEncoded: false)`.
    ///   - sizeLimit: The maximum total size of the entries' files, in bytes,
    ///     headers included, at least 0. Defaults to 100 MiB.
    ///   - trimRatio: The fraction of `sizeLimit` a sweep trims down to, in `0...1`.
    /// - Throws: ``DiskCacheError/invalidSizeLimit(_:)``, ``DiskCacheError/invalidTrimRatio(_:)``,
    ///   ``DiskCacheError/symbolicLink(path:)`` or ``DiskCacheError/notADirectory(path:)``
    ///   if `directory` exists and is not a directory,
    ///   ``DiskCacheError/cannotCreateDirectory(path:underlyingError:)`` or
    ///   ``DiskCacheError/cannotReadDirectory(path:underlyingError:)``.
    /// - Complexity: O(n log n) in the number of files in the directory.
    public convenience init(directory: String, sizeLimit: Int = 100 * 1024 * 1024, trimRatio: Double = 0.8) throws {
        try self.init(directory: directory, sizeLimit: sizeLimit, trimRatio: trimRatio, hooks: DiskCacheHooks())
    }

    /// Opens the cache as ``init(directory:sizeLimit:trimRatio:)`` does, calling `hooks`.
    package init(directory: String, sizeLimit: Int, trimRatio: Double, hooks: DiskCacheHooks) throws(DiskCacheError) {
        guard sizeLimit >= 0 else { throw .invalidSizeLimit(sizeLimit) }
        guard trimRatio.isFinite, trimRatio >= 0, trimRatio <= 1 else { throw .invalidTrimRatio(trimRatio) }
        let directory = Self.withoutTrailingSlashes(directory)
        self.directory = directory
        self.sizeLimit = sizeLimit
        self.trimRatio = trimRatio
        self.hooks = hooks

        try Self.prepareDirectory(directory)
        let scan = try Self.scanDirectory(directory)
        var index = DiskCacheIndex(sizeLimit: sizeLimit, trimRatio: trimRatio)
        for file in scan.entries {
            index.restore(file.digest, size: file.size)
        }
        let victims = index.sweep(keeping: nil)
        state = LockedValue(State(index: index, corruptedEntriesDropped: scan.corruptedEntriesDropped))
        deleteSwept(victims)
    }

    // MARK: - Reading

    /// Returns the bytes stored for `key` and makes it the most recently used
    /// entry, or returns `nil` if there are none.
    ///
    /// A file that is corrupted, truncated or another key's is deleted and reads
    /// as a miss, as does a file that cannot be read at all (the error is not
    /// reported: a cache that cannot serve a read simply misses). A miss on a
    /// key the index does not hold touches no file.
    ///
    /// - Complexity: O(k + n), where k is the length of the key in bytes and n
    ///   the size of the entry: the key is hashed, the file read and checksummed.
    public func data(forKey key: String) -> [UInt8]? {
        let digest = SHA256.hash(key)
        guard let generation = state.withLock({ $0.index.use(digest) }) else { return nil }
        let path = self.path(for: digest)
        hooks.willReadFile(path)
        let file: [UInt8]
        do {
            file = try DiskCacheFileSystem.readFile(path)
        } catch {
            if error.isNoSuchFile {
                // Deleted behind the cache's back: forget it.
                forget(digest, ifGeneration: generation)
            } else {
                // A symbolic link or another kind of file planted under the name.
                dropCorruptedEntry(digest, generation: generation)
            }
            return nil
        }
        guard let payload = try? DiskCacheEntryFormat.payload(of: file, key: digest) else {
            dropCorruptedEntry(digest, generation: generation)
            return nil
        }
        // So that the recency order survives a restart. Best effort: a failure
        // only makes the entry look older to the next process.
        DiskCacheFileSystem.touch(path)
        return payload
    }

    /// Returns whether the cache holds an entry for `key`, without reading it or
    /// changing the recency order.
    ///
    /// The entry's file must still exist: one deleted behind the cache's back
    /// (by the system clearing caches, another process, a user) is forgotten
    /// here, so a `.disk` prefetcher fetches its key again instead of skipping
    /// it forever. The contents are not checked: an entry that turns out to be
    /// corrupted still counts until a read drops it.
    ///
    /// - Complexity: O(k), where k is the length of the key in bytes, plus one `lstat`.
    public func contains(_ key: String) -> Bool {
        let digest = SHA256.hash(key)
        guard let generation = state.withLock({ $0.index.generation(of: digest) }) else { return false }
        if DiskCacheFileSystem.isRegularFile(path(for: digest)) { return true }
        forget(digest, ifGeneration: generation)
        return false
    }

    // MARK: - Writing

    /// Stores `bytes` for `key` as the most recently used entry, replacing any
    /// entry already stored for it, then sweeps if the cache is over its limit.
    ///
    /// The entry is written to a temporary file and renamed into place, so a
    /// concurrent reader, or the next process after a crash, sees the old entry
    /// or the new one, never part of one. Once this returns, the entry is on
    /// disk as far as any process is concerned.
    ///
    /// - Parameters:
    ///   - bytes: The bytes to store: an array, `Data`, or any collection of bytes.
    ///   - key: The key to store them under.
    /// - Throws: ``DiskCacheError/entryTooLarge(size:sizeLimit:)`` if the
    ///   entry's file (`bytes` plus an 80-byte header) would exceed ``sizeLimit``;
    ///   then any entry already stored for `key` is removed, so it is never
    ///   returned as if it were current. ``DiskCacheError/cannotWrite(path:underlyingError:)``
    ///   if the file cannot be written (a full disk, say) or moved into place;
    ///   then any earlier entry for `key` is left as it was.
    /// - Complexity: O(k + n), where k is the length of the key and n the size
    ///   of `bytes`, plus O(1) file deletion for each entry swept. The lock is
    ///   held for O(1) bookkeeping per entry swept, in batches of 512 entries.
    public func store(_ bytes: some Collection<UInt8>, forKey key: String) throws {
        let digest = SHA256.hash(key)
        let size = DiskCacheEntryFormat.fileSize(forPayloadSize: bytes.count)
        guard size <= sizeLimit else {
            removeEntry(digest)
            throw DiskCacheError.entryTooLarge(size: size, sizeLimit: sizeLimit)
        }

        let temporary = temporaryPath()
        do {
            try Self.writeEntry(bytes, key: digest, to: temporary)
        } catch {
            try? DiskCacheFileSystem.removeFile(temporary)
            throw DiskCacheError.cannotWrite(path: temporary, underlyingError: error)
        }

        let path = self.path(for: digest)
        let done = DispatchSemaphore(value: 0)
        claim(digest, until: done)
        do {
            try DiskCacheFileSystem.rename(temporary, to: path)
        } catch {
            try? DiskCacheFileSystem.removeFile(temporary)
            release([digest], claimedUntil: done)
            throw DiskCacheError.cannotWrite(path: path, underlyingError: error)
        }
        var batch = state.withLock { state in
            state.busy[digest] = nil
            let victims = state.index.store(digest, size: size, evictingAtMost: Self.sweepBatchSize)
            return Self.claimVictims(victims, until: done, in: &state)
        }
        var batchDone = done
        while true {
            // Best effort: a file that cannot be deleted is forgotten by the index
            // (it was evicted) and found again by the next process.
            if !batch.victims.isEmpty { hooks.didSweep(batch.victims.map(\.hexString)) }
            _ = deleteFiles(batch.deletable)
            release(batch.deletable, claimedUntil: batchDone)
            guard batch.isSweeping else { return }
            let next = DispatchSemaphore(value: 0)
            batch = state.withLock { state in
                let victims = state.index.sweep(keeping: digest, atMost: Self.sweepBatchSize)
                return Self.claimVictims(victims, until: next, in: &state)
            }
            batchDone = next
        }
    }

    /// The most entries a sweep evicts per lock hold: a sweep of 20,000
    /// entries then holds the lock for a few hundred microseconds at a time.
    private static let sweepBatchSize = 512

    /// Marks the files of `victims` busy until `done`, except those a store in
    /// flight is replacing (its rename replaces the file: deleting it could
    /// delete the newer one).
    private static func claimVictims(
        _ victims: [SHA256.Digest], until done: DispatchSemaphore, in state: inout State
    ) -> (victims: [SHA256.Digest], deletable: [SHA256.Digest], isSweeping: Bool) {
        let deletable = victims.filter { state.busy[$0] == nil }
        for victim in deletable { state.busy[victim] = done }
        return (victims, deletable, state.index.isSweeping)
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
    /// and the first such failure is thrown once the others are deleted. The
    /// index is emptied first, so other threads see the cache empty while the
    /// files are being deleted.
    ///
    /// - Throws: ``DiskCacheError/cannotRemove(path:underlyingError:)`` or
    ///   ``DiskCacheError/cannotReadDirectory(path:underlyingError:)``.
    /// - Complexity: O(n) in the number of files in the directory.
    public func removeAll() throws {
        let done = DispatchSemaphore(value: 0)
        var sizes: [SHA256.Digest: Int] = state.withLock { state in
            var sizes: [SHA256.Digest: Int] = [:]
            for (digest, entry) in state.index.entries where state.busy[digest] == nil {
                sizes[digest] = entry.size
                state.busy[digest] = done
            }
            state.index.removeAll(except: [])
            return sizes
        }
        var firstError: DiskCacheError?
        do {
            let orphans = try DiskCacheFileSystem.contentsOfDirectory(directory)
                .compactMap { SHA256.Digest(hexString: $0) }
                .filter { sizes[$0] == nil }
            let claimed = state.withLock { state in
                orphans.filter { digest in
                    guard state.busy[digest] == nil, !state.index.contains(digest) else { return false }
                    state.busy[digest] = done
                    return true
                }
            }
            for digest in claimed {
                sizes[digest] = (try? DiskCacheFileSystem.status(path(for: digest)))?.size ?? 0
            }
        } catch {
            firstError = .cannotReadDirectory(path: directory, underlyingError: error)
        }
        let digests = Array(sizes.keys)
        let failures = deleteFiles(digests)
        state.withLock { state in
            for (digest, _) in failures where sizes[digest, default: 0] > 0 && !state.index.contains(digest) {
                state.index.restore(digest, size: sizes[digest]!)
            }
        }
        release(digests, claimedUntil: done)
        if let failure = failures.first?.error { firstError = firstError ?? failure }
        if let firstError { throw firstError }
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

    /// The path of the file that holds, or would hold, the entry for `key`.
    package func filePath(forKey key: String) -> String {
        path(for: SHA256.hash(key))
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
        state.withLock { state in
            state.index.checkInvariants()
            precondition(state.busy.isEmpty, "DiskCache has \(state.busy.count) file operations in flight")
        }
    }

    /// The prefix of temporary files' names.
    package static let temporaryPrefix = ".tmp-"
}

extension DiskCache {
    // MARK: - Implementation

    private func path(for digest: SHA256.Digest) -> String {
        "\(directory)/\(digest.hexString)"
    }

    /// A fresh temporary file name: this process's identifier (so that other
    /// processes can tell whether the writer is alive), a counter and a random
    /// number (so that a reused process identifier does not collide).
    private func temporaryPath() -> String {
        let number = Self.temporaryFileCounter.withLock { counter in
            counter += 1
            return counter
        }
        let random = String(UInt32.random(in: .min ... .max), radix: 16)
        return "\(directory)/\(Self.temporaryPrefix)\(DiskCacheFileSystem.processIdentifier)-\(number)-\(random)"
    }

    private static let temporaryFileCounter = LockedValue<UInt64>(0)

    /// Writes the file for `bytes` stored under `key` at `path`, which must not exist.
    private static func writeEntry(
        _ bytes: some Collection<UInt8>, key: SHA256.Digest, to path: String
    ) throws(DiskCacheSystemError) {
        let contiguous: Result<Void, DiskCacheSystemError>? = bytes.withContiguousStorageIfAvailable { buffer in
            Result(catchingTyped: { () throws(DiskCacheSystemError) in
                try writeEntry(UnsafeRawBufferPointer(buffer), key: key, to: path)
            })
        }
        if let contiguous { return try contiguous.typedGet() }
        // `withUnsafeBytes` rethrows untyped errors, so the outcome comes out as a `Result`.
        let array = Array(bytes)
        try array.withUnsafeBytes { buffer in
            Result(catchingTyped: { () throws(DiskCacheSystemError) in try writeEntry(buffer, key: key, to: path) })
        }.typedGet()
    }

    private static func writeEntry(
        _ payload: UnsafeRawBufferPointer, key: SHA256.Digest, to path: String
    ) throws(DiskCacheSystemError) {
        let header = DiskCacheEntryFormat.header(for: payload, key: key)
        try header.withUnsafeBytes { header in
            Result(catchingTyped: { () throws(DiskCacheSystemError) in
                try DiskCacheFileSystem.writeNewFile(path, [header, payload])
            })
        }.typedGet()
    }

    /// Waits until no other operation renames or deletes `digest`'s file, then
    /// marks it busy until `done` is signalled.
    private func claim(_ digest: SHA256.Digest, until done: DispatchSemaphore, _ body: (inout State) -> Void = { _ in })
    {
        while true {
            let other: DispatchSemaphore? = state.withLock { state in
                if let other = state.busy[digest] { return other }
                state.busy[digest] = done
                body(&state)
                return nil
            }
            guard let other else { return }
            // Pass the signal on to any other waiter.
            other.wait()
            other.signal()
        }
    }

    /// Ends the file operations on `digests` claimed until `done`, and wakes their waiters.
    private func release(_ digests: [SHA256.Digest], claimedUntil done: DispatchSemaphore) {
        state.withLock { state in
            for digest in digests where state.busy[digest] === done {
                state.busy[digest] = nil
            }
        }
        done.signal()
    }

    /// Deletes the files of `digests`, which the caller has claimed, outside
    /// the lock, and returns those that could not be deleted.
    private func deleteFiles(_ digests: [SHA256.Digest]) -> [(digest: SHA256.Digest, error: DiskCacheError)] {
        var failures: [(digest: SHA256.Digest, error: DiskCacheError)] = []
        for digest in digests {
            let path = self.path(for: digest)
            hooks.willRemoveFile(path)
            do {
                try DiskCacheFileSystem.removeFile(path)
            } catch {
                failures.append((digest, .cannotRemove(path: path, underlyingError: error)))
            }
        }
        return failures
    }

    /// Deletes the files of entries swept while opening, before any other thread can see the cache.
    private func deleteSwept(_ victims: [SHA256.Digest]) {
        guard !victims.isEmpty else { return }
        hooks.didSweep(victims.map(\.hexString))
        _ = deleteFiles(victims)
    }

    /// Removes `digest`'s entry from the index and deletes its file, which is
    /// attempted even if the index does not hold it, in case an earlier deletion failed.
    private func removeEntry(_ digest: SHA256.Digest) {
        let done = DispatchSemaphore(value: 0)
        claim(digest, until: done) { state in _ = state.index.remove(digest) }
        _ = deleteFiles([digest])
        release([digest], claimedUntil: done)
    }

    /// Forgets `digest`'s entry, whose file is gone, unless a store replaced it meanwhile.
    private func forget(_ digest: SHA256.Digest, ifGeneration generation: DiskCacheIndex.Generation) {
        state.withLock { state in _ = state.index.remove(digest, ifGeneration: generation) }
    }

    /// Deletes a file that failed verification, unless a store replaced it since
    /// it was read (the index's generation for it changed) or is replacing it now.
    private func dropCorruptedEntry(_ digest: SHA256.Digest, generation: DiskCacheIndex.Generation) {
        let done = DispatchSemaphore(value: 0)
        let claimed = state.withLock { state in
            guard state.busy[digest] == nil, state.index.remove(digest, ifGeneration: generation) else { return false }
            state.corruptedEntriesDropped += 1
            state.busy[digest] = done
            return true
        }
        guard claimed else { return }
        _ = deleteFiles([digest])
        release([digest], claimedUntil: done)
    }
}
