/// A thread-safe in-memory cache that evicts the least recently used entries once
/// it exceeds a total cost or an entry count.
///
/// Not `NSCache`: it is not LRU, it evicts unpredictably (whenever the system
/// feels like it, and not in any documented order), and its limits are hints.
/// Prefetching only pays off if what was fetched ahead is still there when the
/// cell appears, so the eviction order has to be the one the prefetcher reasons
/// about: strictly least recently used, where both reading and writing an entry
/// count as a use.
///
/// Each entry has a cost (for example its size in bytes). The cache keeps
/// `totalCost <= costLimit` and `count <= countLimit` after every operation,
/// evicting from the least recently used end. Lowering a limit, or calling
/// ``trim(toCost:)`` on memory pressure, evicts in the same order.
///
/// By default (``init(costLimit:countLimit:cost:trimsOnMemoryPressure:)`` with no arguments) the
/// cache holds a byte budget derived from the machine's memory,
/// ``defaultCostLimit``, measured by the values' own
/// ``MemoryCostReporting/memoryCost``; values that do not report a cost count
/// 1 each against a limit of 1,000 entries. ``trim(for:)`` gives memory back
/// when the system asks (``MemoryPressure``).
///
/// All state sits behind one lock, so the cache can be shared across threads and
/// tasks. Costs are computed outside the lock, and evicted, replaced and
/// removed values are released after it is unlocked: a value's `deinit` may
/// use the cache that held it.
///
/// ## Representation
///
/// Entries live in a slab, a pair of parallel `ContiguousArray`s (the entries,
/// and their links), and are threaded into a doubly linked list by slot index:
/// the head is the most recently used entry, the tail the least. A dictionary
/// maps each key to its slot. A removed entry's slot goes onto a free list
/// (chained through the links' `next`) and is reused by the next insertion, so no
/// operation shifts elements and every lookup, insertion, promotion and removal
/// is O(1). (An `OrderedDictionary` would make promotion O(n), because
/// `remove(at:)` shifts everything after it.) The links are 32-bit, so a cache
/// holds at most `Int32.max` entries.
///
/// The slab is mutated in place: the cache owns the only reference to its
/// buffers, so no copy-on-write copy is ever made. The slab does not shrink
/// when entries are removed, except by ``removeAll()``.
///
/// Invariants, checked by `checkInvariants()` after every mutation in debug
/// builds of caches created with `checksInvariants: true`:
/// - every slot is either on the recency list or on the free list, never both;
///   free slots hold neither a key nor a value;
/// - the dictionary holds exactly the keys on the list, each pointing at its own slot;
/// - `totalCost` is the sum of the costs on the list;
/// - `totalCost <= costLimit` and `count <= countLimit`.
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    // @unchecked: every access to `storage` happens with `lock` held; `costFunction` is immutable.

    @usableFromInline
    let lock = Lock()

    // Unchecked: the lock already makes accesses exclusive, and the dynamic
    // check would cost a thread-local lookup on every operation.
    @usableFromInline
    @exclusivity(unchecked)
    var storage: Storage

    @usableFromInline
    let costFunction: (@Sendable (Value) -> Int)?

    /// Where the cache hears the system's memory pressure (``trimsOnMemoryPressure``).
    let pressureRegistry: MemoryPressureRegistry

    /// Creates an empty cache.
    ///
    /// - Parameters:
    ///   - costLimit: The maximum total cost of the entries. Defaults to
    ///     ``defaultCostLimit``, a byte budget from the machine's memory.
    ///   - countLimit: The maximum number of entries. Defaults to no limit when
    ///     the values report their cost (``MemoryCostReporting``) or a `cost`
    ///     function is given, so the byte budget governs, and to 1,000 otherwise.
    ///   - cost: The cost of a value, used when ``setValue(_:forKey:cost:)`` is
    ///     not given one explicitly. Without it a value costs its
    ///     ``MemoryCostReporting/memoryCost`` if it reports one, or else 1. It is
    ///     called outside the cache's lock and must not return a negative number.
    ///   - trimsOnMemoryPressure: whether the cache gives memory back by itself
    ///     when the system runs short (see ``trimsOnMemoryPressure``); `true`
    ///     by default.
    public convenience init(
        costLimit: Int = MemoryCache.defaultCostLimit, countLimit: Int? = nil,
        cost: (@Sendable (Value) -> Int)? = nil, trimsOnMemoryPressure: Bool = true
    ) {
        self.init(
            costLimit: costLimit, countLimit: countLimit, cost: cost,
            pressureRegistry: trimsOnMemoryPressure ? .shared : nil)
    }

    /// Creates an empty cache that hears memory pressure from `pressureRegistry`
    /// (a test's own), or from nobody (`nil`).
    package init(
        costLimit: Int = MemoryCache.defaultCostLimit, countLimit: Int? = nil,
        cost: (@Sendable (Value) -> Int)? = nil, pressureRegistry: MemoryPressureRegistry?
    ) {
        let reportsCost = Value.self is any MemoryCostReporting.Type
        let countLimit = countLimit ?? (reportsCost || cost != nil ? .max : 1_000)
        MemoryCache.checkLimit(costLimit, named: "costLimit")
        MemoryCache.checkLimit(countLimit, named: "countLimit")
        storage = Storage(costLimit: costLimit, countLimit: countLimit)
        let reportedCost: @Sendable (Value) -> Int = { ($0 as? any MemoryCostReporting)?.memoryCost ?? 1 }
        costFunction = cost ?? (reportsCost ? reportedCost : nil)
        self.pressureRegistry = pressureRegistry ?? .shared
        if let pressureRegistry { pressureRegistry.register(self) }
    }

    deinit {
        pressureRegistry.unregister(ObjectIdentifier(self))
    }

    /// The default byte budget: 15% of the machine's physical memory, at most
    /// 512 MiB (256 MiB where the memory cannot be read).
    ///
    /// Nuke's image cache takes a similar share; a prefetching cache needs room
    /// for a few screens ahead and behind, not for the whole list.
    public static var defaultCostLimit: Int {
        let cap = 512 << 20
        guard let memory = physicalMemoryBytes() else { return 256 << 20 }
        return Int(min(UInt64(cap), memory / 100 * 15))
    }

    /// Creates an empty cache that, in debug builds, checks its invariants after
    /// every operation when `checksInvariants` is true. That makes every
    /// operation O(n): for tests only.
    package convenience init(
        costLimit: Int = .max, countLimit: Int = 1_000, cost: (@Sendable (Value) -> Int)? = nil,
        checksInvariants: Bool
    ) {
        self.init(costLimit: costLimit, countLimit: countLimit, cost: cost)
        storage.checksInvariants = checksInvariants
    }

    /// Returns the value for `key` and makes it the most recently used entry, or
    /// returns `nil` if the cache holds no value for `key`.
    ///
    /// - Complexity: O(1) on average (one hash lookup).
    @inlinable
    public func value(forKey key: Key) -> Value? {
        withStorage { $0.value(forKey: key) }
    }

    /// Returns the value for `key` like ``value(forKey:)``, and counts a hit in
    /// ``countedHits`` when there is one.
    ///
    /// How ``AsyncFetcher`` counts the requests its cache answered: under the
    /// lock the lookup takes anyway, so a hit costs no second lock and no
    /// atomic (the core avoids the `Synchronization` module, which needs
    /// iOS 18).
    ///
    /// - Complexity: O(1) on average (one hash lookup).
    @inlinable
    package func valueCountingHit(forKey key: Key) -> Value? {
        withStorage { storage in
            let value = storage.value(forKey: key)
            if value != nil { storage.countedHits &+= 1 }
            return value
        }
    }

    /// The hits counted by ``valueCountingHit(forKey:)``.
    @inlinable
    package var countedHits: Int {
        readStorage { $0.countedHits }
    }

    /// Stores `value` for `key` as the most recently used entry, then evicts the
    /// least recently used entries until the cache is within both limits.
    ///
    /// A value already stored for `key` is replaced. A value whose cost exceeds
    /// ``costLimit`` is not stored at all (it would evict everything and then
    /// itself), and any value already stored for `key` is removed, so the cache
    /// never returns a stale value after a newer one was offered.
    ///
    /// - Parameters:
    ///   - value: The value to store.
    ///   - key: The key to store it under.
    ///   - cost: The entry's cost. Defaults to the cost function given to
    ///     ``init(costLimit:countLimit:cost:trimsOnMemoryPressure:)``, or to 1 if there is none.
    ///     Must not be negative.
    /// - Complexity: O(1) amortized, plus O(1) for each entry evicted.
    @inlinable
    public func setValue(_ value: Value, forKey key: Key, cost: Int? = nil) {
        let cost = cost ?? costFunction?(value) ?? 1
        precondition(cost >= 0, "MemoryCache entry cost must not be negative, got \(cost)")
        withStorage { $0.setValue(value, forKey: key, cost: cost) }
    }

    /// Removes the value for `key`, returning it, or returns `nil` if there was none.
    ///
    /// - Complexity: O(1) on average.
    @inlinable
    @discardableResult
    public func removeValue(forKey key: Key) -> Value? {
        withStorage { $0.removeValue(forKey: key) }
    }

    /// Removes every entry and releases the cache's storage.
    ///
    /// - Complexity: O(n), where n is the number of entries.
    public func removeAll() {
        let entries = withStorage { $0.removeAll() }
        _ = consume entries  // released here, unlocked
    }

    /// The maximum total cost of the entries. Lowering it evicts least recently
    /// used entries until the total cost fits.
    public var costLimit: Int {
        get { readStorage { $0.costLimit } }
        set { setLimit(\.costLimit, named: "costLimit", to: newValue) }
    }

    /// The maximum number of entries. Lowering it evicts least recently used
    /// entries until the count fits.
    public var countLimit: Int {
        get { readStorage { $0.countLimit } }
        set { setLimit(\.countLimit, named: "countLimit", to: newValue) }
    }

    /// Sets one of the two limits, then evicts least recently used entries
    /// until both hold.
    private func setLimit(_ limit: WritableKeyPath<Storage, Int>, named name: String, to value: Int) {
        MemoryCache.checkLimit(value, named: name)
        withStorage {
            $0[keyPath: limit] = value
            $0.trim(toCost: $0.costLimit, toCount: $0.countLimit)
        }
    }

    /// Stops the program if a limit is negative: a limit is the app's constant, not user input.
    private static func checkLimit(_ value: Int, named name: String) {
        precondition(value >= 0, "MemoryCache \(name) must not be negative, got \(value)")
    }

    /// The sum of the costs of the entries.
    ///
    /// - Complexity: O(1).
    public var totalCost: Int {
        readStorage { $0.totalCost }
    }

    /// The number of entries.
    ///
    /// - Complexity: O(1).
    public var count: Int {
        readStorage { $0.index.count }
    }

    /// The keys, most recently used first. For tests.
    ///
    /// - Complexity: O(n).
    package func keysByRecency() -> [Key] {
        readStorage { $0.keysByRecency() }
    }

    /// Checks the invariants listed on the type and stops the program if one
    /// does not hold.
    ///
    /// - Complexity: O(n), where n is the size of the slab.
    func checkInvariants() {
        readStorage { $0.checkInvariants() }
    }

    /// Runs `body` on the storage with the lock held: the one way to change the state.
    ///
    /// The storage is accessed once per operation, as one `inout` access, so the
    /// slab is mutated in place.
    /// Entries the operation evicted or replaced are moved out before the lock
    /// is released and dropped after it: their values' `deinit` runs unlocked.
    @inlinable
    func withStorage<Result>(_ body: (inout Storage) -> Result) -> Result {
        var released = ContiguousArray<Entry>()
        lock.lock()
        let result = body(&storage)
        if !storage.released.isEmpty { swap(&released, &storage.released) }
        #if DEBUG
        if storage.checksInvariants { storage.checkInvariants() }
        #endif
        lock.unlock()
        released.removeAll()
        return result
    }

    /// Runs `body` on the storage with the lock held, without changing it.
    @inlinable
    func readStorage<Result>(_ body: (Storage) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(storage)
    }
}

extension MemoryCache {
    /// A slot number. 32 bits keep `Links` at 8 bytes, so the list of a large
    /// cache stays in the CPU caches while it is reordered.
    @usableFromInline
    typealias Slot = Int32

    /// An entry's payload, apart from its links: reordering the list touches
    /// only the small, dense `links` array, and a lookup reads one entry.
    @usableFromInline
    struct Entry {
        @usableFromInline
        var key: Key
        @usableFromInline
        var value: Value
        @usableFromInline
        var cost: Int

        @inlinable
        init(key: Key, value: Value, cost: Int) {
            self.key = key
            self.value = value
            self.cost = cost
        }
    }

    /// A slot's place in the recency list, or in the free list.
    @usableFromInline
    struct Links {
        /// The next more recently used slot, or `-1` at the head.
        @usableFromInline
        var previous: Slot
        /// The next less recently used slot, or `-1` at the tail; on the free
        /// list, the next free slot.
        @usableFromInline
        var next: Slot

        @inlinable
        init(previous: Slot, next: Slot) {
            self.previous = previous
            self.next = next
        }
    }

    /// The cache's state, unsynchronized: `MemoryCache` only touches it with its
    /// lock held. Slot `-1` means "none".
    @usableFromInline
    struct Storage {
        /// The slot of each key on the recency list.
        @usableFromInline
        var index: [Key: Slot] = [:]
        /// The slab's payloads, `nil` exactly for the free slots (so a removed
        /// value is released at once).
        @usableFromInline
        var entries: ContiguousArray<Entry?> = []
        /// The slab's links, parallel to `entries`.
        @usableFromInline
        var links: ContiguousArray<Links> = []
        /// The most recently used slot.
        @usableFromInline
        var head: Slot = -1
        /// The least recently used slot: the next to be evicted.
        @usableFromInline
        var tail: Slot = -1
        /// The first free slot.
        @usableFromInline
        var freeHead: Slot = -1
        @usableFromInline
        var totalCost = 0
        @usableFromInline
        var costLimit: Int
        @usableFromInline
        var countLimit: Int
        @usableFromInline
        var checksInvariants = false
        /// Entries evicted or replaced by the current operation, released by
        /// `withStorage` once the lock is unlocked.
        @usableFromInline
        var released = ContiguousArray<Entry>()
        /// Hits counted by `valueCountingHit(forKey:)`.
        @usableFromInline
        var countedHits = 0

        @usableFromInline
        init(costLimit: Int, countLimit: Int) {
            self.costLimit = costLimit
            self.countLimit = countLimit
        }

        @inlinable
        mutating func value(forKey key: Key) -> Value? {
            guard let slot = index[key] else { return nil }
            if slot != head {
                unlink(slot)
                linkAtHead(slot)
            }
            return entries[Int(slot)]!.value
        }

        @inlinable
        mutating func setValue(_ value: Value, forKey key: Key, cost: Int) {
            if let slot = index[key] {
                // Detach the old entry first: making room then cannot evict it,
                // and `totalCost + cost` is never computed, so it cannot overflow.
                unlink(slot)
                totalCost -= entries[Int(slot)]!.cost
                guard cost <= costLimit else {
                    index[key] = nil
                    released.append(free(slot))
                    return
                }
                // The count is unchanged by a replacement, so only the cost can need room.
                trim(toCost: costLimit - cost, toCount: countLimit)
                released.append(entries[Int(slot)].take()!)
                entries[Int(slot)] = Entry(key: key, value: value, cost: cost)
                linkAtHead(slot)
                totalCost += cost
            } else {
                guard cost <= costLimit, countLimit > 0 else { return }
                trim(toCost: costLimit - cost, toCount: countLimit - 1)
                let slot = allocate(Entry(key: key, value: value, cost: cost))
                index[key] = slot
                linkAtHead(slot)
                totalCost += cost
            }
        }

        @inlinable
        mutating func removeValue(forKey key: Key) -> Value? {
            guard let slot = index.removeValue(forKey: key) else { return nil }
            unlink(slot)
            let entry = free(slot)
            totalCost -= entry.cost
            return entry.value
        }

        /// Empties the cache and returns the slab, for the caller to release
        /// once unlocked.
        @usableFromInline
        mutating func removeAll() -> ContiguousArray<Entry?> {
            defer { entries = [] }
            index = [:]
            links = []
            head = -1
            tail = -1
            freeHead = -1
            totalCost = 0
            return entries
        }

        /// Evicts from the tail until both bounds hold.
        ///
        /// While a bound is exceeded the list is not empty, because both bounds
        /// are non-negative and an empty list has no cost and no count.
        @inlinable
        mutating func trim(toCost maxCost: Int, toCount maxCount: Int) {
            while totalCost > maxCost || index.count > maxCount {
                let slot = tail
                precondition(slot >= 0, "MemoryCache is over a limit with nothing left to evict")
                unlink(slot)
                let entry = free(slot)
                totalCost -= entry.cost
                index[entry.key] = nil
                released.append(entry)
            }
        }

        /// Removes `slot` from the recency list, leaving its own links stale.
        @inlinable
        mutating func unlink(_ slot: Slot) {
            let links = self.links[Int(slot)]
            if links.previous >= 0 {
                self.links[Int(links.previous)].next = links.next
            } else {
                head = links.next
            }
            if links.next >= 0 {
                self.links[Int(links.next)].previous = links.previous
            } else {
                tail = links.previous
            }
        }

        /// Makes `slot`, which is not on the list, its head.
        @inlinable
        mutating func linkAtHead(_ slot: Slot) {
            links[Int(slot)] = Links(previous: -1, next: head)
            if head >= 0 {
                links[Int(head)].previous = slot
            } else {
                tail = slot
            }
            head = slot
        }

        /// Puts `entry` in a free slot, reusing one if there is any, and returns
        /// the slot, which is on neither list.
        @inlinable
        mutating func allocate(_ entry: consuming Entry) -> Slot {
            guard freeHead >= 0 else {
                precondition(entries.count < Slot.max, "MemoryCache holds at most \(Slot.max) entries")
                entries.append(entry)
                links.append(Links(previous: -1, next: -1))
                return Slot(entries.count - 1)
            }
            let slot = freeHead
            freeHead = links[Int(slot)].next
            entries[Int(slot)] = entry
            return slot
        }

        /// Takes the entry out of `slot`, which is on neither list, and pushes
        /// the slot onto the free list.
        @inlinable
        mutating func free(_ slot: Slot) -> Entry {
            links[Int(slot)] = Links(previous: -1, next: freeHead)
            freeHead = slot
            return entries[Int(slot)].take()!
        }

        func keysByRecency() -> [Key] {
            var keys: [Key] = []
            keys.reserveCapacity(index.count)
            var slot = head
            while slot >= 0 {
                keys.append(entries[Int(slot)]!.key)
                slot = links[Int(slot)].next
            }
            return keys
        }

        @usableFromInline
        func checkInvariants() {
            precondition(entries.count == links.count, "\(entries.count) entries but \(links.count) links")
            var seen = [Bool](repeating: false, count: entries.count)
            var listed = 0
            var cost = 0
            var previous: Slot = -1
            var slot = head
            while slot >= 0 {
                precondition(Int(slot) < entries.count, "slot \(slot) is outside the slab")
                precondition(!seen[Int(slot)], "the recency list has a cycle at slot \(slot)")
                seen[Int(slot)] = true
                let links = self.links[Int(slot)]
                precondition(
                    links.previous == previous, "slot \(slot) links back to \(links.previous), not \(previous)")
                guard let entry = entries[Int(slot)] else { preconditionFailure("listed slot \(slot) is empty") }
                precondition(index[entry.key] == slot, "the index does not map slot \(slot)'s key to it")
                precondition(entry.cost >= 0, "slot \(slot) has a negative cost")
                listed += 1
                cost += entry.cost
                previous = slot
                slot = links.next
            }
            precondition(tail == previous, "tail is \(tail), but the list ends at \(previous)")
            precondition(listed == index.count, "\(listed) entries are listed but \(index.count) are indexed")
            precondition(cost == totalCost, "the costs add up to \(cost) but totalCost is \(totalCost)")
            precondition(totalCost <= costLimit, "totalCost \(totalCost) exceeds costLimit \(costLimit)")
            precondition(index.count <= countLimit, "count \(index.count) exceeds countLimit \(countLimit)")

            var freeCount = 0
            slot = freeHead
            while slot >= 0 {
                precondition(Int(slot) < entries.count, "free slot \(slot) is outside the slab")
                precondition(!seen[Int(slot)], "slot \(slot) is on both lists, or the free list has a cycle")
                seen[Int(slot)] = true
                precondition(entries[Int(slot)] == nil, "free slot \(slot) holds an entry")
                freeCount += 1
                slot = links[Int(slot)].next
            }
            precondition(
                listed + freeCount == entries.count, "\(entries.count - listed - freeCount) slots are on neither list")
        }
    }
}
