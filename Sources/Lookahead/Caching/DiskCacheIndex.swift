/// The disk cache's bookkeeping: which entries exist, how many bytes each one's
/// file takes, and the order in which they were last used. It decides what a
/// sweep evicts; ``DiskCache`` applies those decisions to the files. No I/O and
/// no clock: recency is the order of calls, not a time.
///
/// Entries are known by the SHA-256 digest of their key, not by the key: after
/// a restart the index is rebuilt from the file names, which are digests, and
/// the keys cannot be recovered from them.
///
/// ## Representation
///
/// A dictionary from digest to entry, whose entries are threaded into a doubly
/// linked list through the neighbours' digests: `newest` is the most recently
/// used entry, `oldest` the next to be evicted. Promotion, insertion and removal
/// are a few dictionary operations each, so O(1) on average, and a sweep costs
/// O(1) per entry it evicts. (Sorting by a last-access stamp at sweep time would
/// make every sweep O(n log n).)
///
/// Each store gives the entry a new *generation*. ``DiskCache`` reads files
/// outside its lock; when such a read finds a bad file it asks to drop the entry
/// only if its generation is still the one it read, so it never deletes a newer
/// entry that a concurrent store renamed into place meanwhile.
///
/// Invariants, checked by ``checkInvariants()``:
/// - the list holds exactly the dictionary's entries, linked both ways;
/// - `totalSize` is the sum of their sizes, each of which is positive;
/// - once no sweep is under way, `totalSize <= sizeLimit`.
struct DiskCacheIndex {
    typealias Digest = SHA256.Digest
    typealias Generation = UInt64

    struct Entry {
        /// The size of the entry's file in bytes, header included.
        var size: Int
        var generation: Generation
        /// The next more recently used entry, `nil` for the newest.
        var newer: Digest?
        /// The next less recently used entry, `nil` for the oldest.
        var older: Digest?
    }

    private(set) var entries: [Digest: Entry] = [:]
    /// The most recently used entry.
    private(set) var newest: Digest?
    /// The least recently used entry: the next to be evicted.
    private(set) var oldest: Digest?
    /// The sum of the entries' sizes.
    private(set) var totalSize = 0
    /// The size a sweep may not leave the cache above.
    let sizeLimit: Int
    /// The size a sweep trims down to once the cache is over ``sizeLimit``.
    let trimTarget: Int
    private var lastGeneration: Generation = 0
    /// Whether a sweep has begun and not yet brought the total down to ``trimTarget``.
    private(set) var isSweeping = false

    init(sizeLimit: Int, trimRatio: Double) {
        precondition(sizeLimit >= 0, "DiskCache sizeLimit must not be negative, got \(sizeLimit)")
        precondition(
            trimRatio >= 0 && trimRatio <= 1, "DiskCache trimRatio must be between 0 and 1, got \(trimRatio)")
        self.sizeLimit = sizeLimit
        // Rounded down, and clamped: `Double(Int.max)` is 2^63, which does not
        // convert back to an `Int`.
        let target = (Double(sizeLimit) * trimRatio).rounded(.down)
        trimTarget = target >= Double(sizeLimit) ? sizeLimit : Int(target)
    }

    var count: Int { entries.count }

    func contains(_ digest: Digest) -> Bool {
        entries[digest] != nil
    }

    /// The generation of `digest`'s entry, or `nil` if there is no such entry.
    func generation(of digest: Digest) -> Generation? {
        entries[digest]?.generation
    }

    /// Records a read of `digest`'s entry, making it the most recently used,
    /// and returns its generation, or returns `nil` if there is no such entry.
    mutating func use(_ digest: Digest) -> Generation? {
        guard let generation = entries[digest]?.generation else { return nil }
        if newest != digest {
            unlink(digest)
            linkAsNewest(digest)
        }
        return generation
    }

    /// Records that `digest`'s file now holds a newly stored entry of `size`
    /// bytes, the most recently used, and returns the entries to evict, at most
    /// `maximum` of them: if more must go, ``isSweeping`` stays true and
    /// ``sweep(keeping:atMost:)`` evicts the rest.
    ///
    /// The new entry itself is never evicted: `size` must not exceed
    /// ``sizeLimit``, so once it is the only entry left the cache is within the limit.
    mutating func store(_ digest: Digest, size: Int, evictingAtMost maximum: Int = .max) -> [Digest] {
        precondition(size > 0 && size <= sizeLimit, "DiskCache entry size \(size) is outside 1...\(sizeLimit)")
        if entries[digest] != nil {
            _ = remove(digest)
        }
        insertAsNewest(digest, size: size)
        return sweep(keeping: digest, atMost: maximum)
    }

    /// Adds an entry found on disk while rebuilding the index, as the most
    /// recently used so far: restore entries from the oldest to the newest, then
    /// ``sweep(keeping:)``.
    mutating func restore(_ digest: Digest, size: Int) {
        precondition(entries[digest] == nil, "DiskCache restored entry \(digest.hexString) twice")
        precondition(size > 0, "DiskCache entry size must be positive, got \(size)")
        insertAsNewest(digest, size: size)
    }

    /// If the cache is over ``sizeLimit``, or a sweep begun earlier is not
    /// finished, evicts the least recently used entries until it is at most
    /// ``trimTarget``, sparing `kept`, and returns them; at most `maximum` of
    /// them, so that a caller holding a lock can evict thousands of entries in
    /// batches (``isSweeping`` says whether more must go).
    ///
    /// Trimming below the limit, rather than just under it, batches the deletions:
    /// a full cache would otherwise delete one file on nearly every store.
    mutating func sweep(keeping kept: Digest?, atMost maximum: Int = .max) -> [Digest] {
        if totalSize > sizeLimit { isSweeping = true }
        guard isSweeping else { return [] }
        var evicted: [Digest] = []
        while evicted.count < maximum, totalSize > trimTarget, let victim = oldest, victim != kept {
            _ = remove(victim)
            evicted.append(victim)
        }
        if totalSize <= trimTarget || oldest == nil || oldest == kept {
            isSweeping = false
        }
        return evicted
    }

    /// Removes `digest`'s entry, returning it, or returns `nil` if there was none.
    mutating func remove(_ digest: Digest) -> Entry? {
        guard let entry = entries[digest] else { return nil }
        unlink(digest)
        entries[digest] = nil
        totalSize -= entry.size
        return entry
    }

    /// Removes `digest`'s entry if it is still of `generation`, and returns
    /// whether it did.
    mutating func remove(_ digest: Digest, ifGeneration generation: Generation) -> Bool {
        guard entries[digest]?.generation == generation else { return false }
        _ = remove(digest)
        return true
    }

    /// Removes every entry except those in `kept`.
    mutating func removeAll(except kept: Set<Digest>) {
        for digest in Array(entries.keys) where !kept.contains(digest) {
            _ = remove(digest)
        }
    }

    /// The digests, most recently used first.
    func digestsByRecency() -> [Digest] {
        var digests: [Digest] = []
        digests.reserveCapacity(entries.count)
        var current = newest
        while let digest = current {
            digests.append(digest)
            current = entries[digest]?.older
        }
        return digests
    }

    /// Stops the program if an invariant listed on the type does not hold.
    ///
    /// - Complexity: O(n).
    func checkInvariants() {
        var seen = Set<Digest>()
        var size = 0
        var previous: Digest?
        var current = newest
        while let digest = current {
            guard let entry = entries[digest] else {
                preconditionFailure("DiskCacheIndex lists \(digest.hexString), which it does not hold")
            }
            precondition(seen.insert(digest).inserted, "DiskCacheIndex's list has a cycle")
            precondition(entry.newer == previous, "DiskCacheIndex's links disagree at \(digest.hexString)")
            precondition(entry.size > 0, "DiskCacheIndex holds an entry of size \(entry.size)")
            size += entry.size
            previous = digest
            current = entry.older
        }
        precondition(oldest == previous, "DiskCacheIndex's oldest entry is not the list's last")
        precondition(seen.count == entries.count, "DiskCacheIndex lists \(seen.count) of \(entries.count) entries")
        precondition(size == totalSize, "DiskCacheIndex sizes add up to \(size), but totalSize is \(totalSize)")
        precondition(
            isSweeping || totalSize <= sizeLimit, "DiskCacheIndex holds \(totalSize) bytes, over its limit \(sizeLimit)"
        )
    }

    private mutating func insertAsNewest(_ digest: Digest, size: Int) {
        lastGeneration += 1
        entries[digest] = Entry(size: size, generation: lastGeneration, newer: nil, older: nil)
        totalSize += size
        linkAsNewest(digest)
    }

    /// Takes `digest`'s entry off the list, leaving its own links stale.
    private mutating func unlink(_ digest: Digest) {
        guard let entry = entries[digest] else { preconditionFailure("DiskCacheIndex unlinks a missing entry") }
        if let newer = entry.newer {
            entries[newer]!.older = entry.older
        } else {
            newest = entry.older
        }
        if let older = entry.older {
            entries[older]!.newer = entry.newer
        } else {
            oldest = entry.newer
        }
    }

    /// Puts `digest`'s entry, which is not on the list, at its newest end.
    private mutating func linkAsNewest(_ digest: Digest) {
        entries[digest]!.newer = nil
        entries[digest]!.older = newest
        if let newest {
            entries[newest]!.newer = digest
        } else {
            oldest = digest
        }
        newest = digest
    }
}
