/// The slot arena of `FetchScheduler`: loads and interests live in arrays
/// and name each other by index, reusing freed slots, and an interest is
/// linked into its load's list through its record.
///
/// Why an arena and not objects: an event touches a handful of records, and
/// indices into two arrays cost neither reference counting nor allocation
/// once the arrays have grown; a generation in each identifier makes a stale
/// one harmless.
extension FetchScheduler {
    /// The load slot of `key`, made if the key has none.
    @inlinable
    mutating func slotForLoad(of key: Key) -> Int {
        if let slot = loadSlots[key] { return slot }
        let slot = allocateLoad(LoadRecord(), key: key)
        loadSlots[key] = slot
        return slot
    }

    /// Stores `record`, a load of `key`, in a free load slot.
    @inlinable
    mutating func allocateLoad(_ record: LoadRecord, key: Key) -> Int {
        if let reused = freeLoads.popLast() {
            loads[reused] = record
            loadKeys[reused] = key
            return reused
        }
        loads.append(record)
        loadKeys.append(key)
        return loads.count - 1
    }

    /// Frees an idle load that no interest wants.
    @inlinable
    mutating func freeLoadIfUnused(_ slot: Int) {
        guard let record = loads[slot], record.interestCount == 0, case .idle = record.state else { return }
        loadSlots[loadKeys[slot]!] = nil
        loads[slot] = nil
        loadKeys[slot] = nil
        freeLoads.append(slot)
    }

    /// A slot of `records` to use: the last one freed, or else a new one
    /// at the end holding `fresh`. The arena's one rule for groups and
    /// interests (loads store their record at once: ``allocateLoad(_:)``).
    @inlinable
    static func reuseOrAppend<Record>(
        _ records: inout [Record], free: inout [Int], fresh: @autoclosure () -> Record
    ) -> Int {
        if let reused = free.popLast() { return reused }
        records.append(fresh())
        return records.count - 1
    }

    @inlinable
    mutating func allocateInterest() -> Int {
        let slot = Self.reuseOrAppend(&interests, free: &freeInterests, fresh: InterestRecord())
        if slot == payloads.count { payloads.append(nil) }
        interests[slot].isLive = true
        interests[slot].isAdmitted = false
        return slot
    }

    @inlinable
    mutating func appendToLoadList(_ interest: Int, load: Int) {
        let tail = loads[load]!.tail
        interests[interest].loadPrevious = tail
        interests[interest].loadNext = -1
        if tail == -1 { loads[load]!.head = interest } else { interests[tail].loadNext = interest }
        loads[load]!.tail = interest
        loads[load]!.interestCount += 1
    }

    @inlinable
    mutating func removeFromLoadList(_ interest: Int) {
        let load = interests[interest].load
        let previous = interests[interest].loadPrevious
        let next = interests[interest].loadNext
        if previous == -1 { loads[load]!.head = next } else { interests[previous].loadNext = next }
        if next == -1 { loads[load]!.tail = previous } else { interests[next].loadPrevious = previous }
        loads[load]!.interestCount -= 1
    }
}
