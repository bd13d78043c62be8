/// The groups of `FetchScheduler`: one per prefetcher, with its priority,
/// pause, admission limit, and the set of keys it prefetches with their
/// outcomes (the bookkeeping ``Prefetcher`` and the simulator's prefetchers
/// share instead of keeping their own maps).
extension FetchScheduler {
    /// Creates a group of interests (one prefetcher).
    ///
    /// - Parameters:
    ///   - priority: the priority of every interest in the group.
    ///   - admissionLimit: the most interests of the group admitted at once.
    /// - Complexity: O(1) amortized.
    @inlinable
    public mutating func makeGroup(priority: FetchPriority = .low, admissionLimit: Int = .max) -> GroupID {
        precondition(admissionLimit >= 1, "admissionLimit must be at least 1, got \(admissionLimit)")
        let index = Self.reuseOrAppend(&groups, free: &freeGroups, fresh: GroupRecord())
        groups[index].isLive = true
        groups[index].isPaused = false
        groups[index].priority = priority
        groups[index].admissionLimit = admissionLimit
        groups[index].admittedCount = 0
        groups[index].admitted = ListEnds()
        groups[index].waiting = ListEnds()
        if index == groupKeys.count { groupKeys.append([:]) } else { groupKeys[index] = [:] }
        groups[index].completedCount = 0
        groups[index].failedCount = 0
        return GroupID(index: index, generation: groups[index].generation)
    }

    /// Whether `group` still exists.
    @inlinable
    public func isLive(_ group: GroupID) -> Bool {
        group.index < groups.count && groups[group.index].isLive && groups[group.index].generation == group.generation
    }

    /// Stops the program unless `group` is a live prefetcher's group: the
    /// default group (interests without a prefetcher) has no limit, pause or
    /// priority of its own. `operation` names the caller in the message.
    @inlinable
    func checkPrefetcherGroup(_ group: GroupID, _ operation: String) {
        precondition(isLive(group), "\(operation): \(group) was removed")
        precondition(group.index != 0, "\(operation) takes a prefetcher's group, not the default one")
    }

    /// Withdraws every interest of `group` and forgets the group.
    ///
    /// - Returns: the payloads of the withdrawn interests.
    /// - Complexity: O(interests in the group).
    @discardableResult
    @inlinable
    public mutating func removeGroup(_ group: GroupID) -> [Payload] {
        precondition(group.index != 0, "the default group cannot be removed")
        guard isLive(group) else { return [] }
        let payloads = withdrawAll(inGroup: group)
        groups[group.index].isLive = false
        groups[group.index].generation &+= 1
        freeGroups.append(group.index)
        return payloads
    }

    /// Withdraws every interest of `group`, which stays usable.
    ///
    /// - Returns: the payloads of the withdrawn interests.
    /// - Complexity: O(interests in the group).
    @discardableResult
    @inlinable
    public mutating func withdrawAll(inGroup group: GroupID) -> [Payload] {
        checkPrefetcherGroup(group, "withdrawAll(inGroup:)")
        var payloads: [Payload] = []
        for list in [groups[group.index].waiting, groups[group.index].admitted] {
            var cursor = list.head
            while cursor != -1 {
                let next = interests[cursor].groupNext
                let loadSlot = interests[cursor].load
                if let payload = detach(cursor) { payloads.append(payload) }
                reconcile(loadSlot)
                cursor = next
            }
        }
        settle()
        return payloads
    }

    /// Pauses or resumes a group. While paused, its loads that have not
    /// started wait (unless another interest wants them), running ones finish,
    /// and no more of its interests are admitted.
    /// - Complexity: O(admitted interests in the group).
    @inlinable
    public mutating func setPaused(_ isPaused: Bool, group: GroupID) {
        checkPrefetcherGroup(group, "setPaused(_:group:)")
        guard groups[group.index].isPaused != isPaused else { return }
        groups[group.index].isPaused = isPaused
        // Every interest changes first, then each load is brought in line
        // once, in admission order: its priority counts and its deadline
        // (read from the group's flag) then agree.
        var cursor = groups[group.index].admitted.head
        while cursor != -1 {
            countActive(cursor, isPaused ? -1 : 1)
            cursor = interests[cursor].groupNext
        }
        cursor = groups[group.index].admitted.head
        while cursor != -1 {
            reconcile(interests[cursor].load)
            cursor = interests[cursor].groupNext
        }
        admitWaiting(inGroup: group.index)
        settle()
    }

    /// The priority of every interest of `group`.
    @inlinable
    public func priority(of group: GroupID) -> FetchPriority {
        groups[group.index].priority
    }

    /// Whether `group` is paused.
    @inlinable
    public func isPaused(_ group: GroupID) -> Bool {
        groups[group.index].isPaused
    }

    /// Changes the priority of every interest of `group`, queued work included.
    /// - Complexity: O(interests in the group).
    @inlinable
    public mutating func setPriority(_ priority: FetchPriority, group: GroupID) {
        checkPrefetcherGroup(group, "setPriority(_:group:)")
        guard groups[group.index].priority != priority else { return }
        groups[group.index].priority = priority
        let isPaused = groups[group.index].isPaused
        for list in [groups[group.index].admitted, groups[group.index].waiting] {
            var cursor = list.head
            while cursor != -1 {
                let old = interests[cursor].priority
                interests[cursor].priority = priority
                if interests[cursor].isAdmitted && !isPaused {
                    let loadSlot = interests[cursor].load
                    loads[loadSlot]!.active[old] -= 1
                    loads[loadSlot]!.active[priority] += 1
                    reconcile(loadSlot)
                }
                cursor = interests[cursor].groupNext
            }
        }
        settle()
    }

    /// Changes how many interests of `group` are admitted at once.
    /// - Complexity: O(newly admitted interests).
    @inlinable
    public mutating func setAdmissionLimit(_ limit: Int, group: GroupID) {
        precondition(isLive(group), "setAdmissionLimit(_:group:): \(group) was removed")
        precondition(limit >= 1, "admissionLimit must be at least 1, got \(limit)")
        groups[group.index].admissionLimit = limit
        admitWaiting(inGroup: group.index)
        settle()
    }

    // MARK: Keys

    /// Adds `key` to `group`'s set of keys, unless it is there already: one
    /// interest per key and group, found again by key.
    ///
    /// The group counts how its keys end (``completedCount(in:)``,
    /// ``failedCount(in:)``); a key leaves the set when its load succeeds or
    /// fails for good, or when it is removed.
    ///
    /// - Parameters:
    ///   - key: the key to load.
    ///   - group: a prefetcher's group (not the default one).
    ///   - deadline: when the key's item is predicted to appear (see
    ///     ``addInterest(in:priority:deadline:group:payload:)``).
    ///   - payload: what the driver gets back when the key's interest ends.
    /// - Returns: the new interest, or `nil` when the key was in the set.
    /// - Complexity: O(1) amortized without a deadline.
    @discardableResult
    @inlinable
    public mutating func addKey(
        _ key: Key, to group: GroupID, deadline: Duration? = nil, payload: Payload?
    ) -> InterestID? {
        checkPrefetcherGroup(group, "addKey(_:to:)")
        guard groupKeys[group.index][key] == nil else { return nil }
        let slot = register(key, priority: .normal, deadline: deadline, group: group.index, payload: payload)
        interests[slot].isKeyed = true
        groupKeys[group.index][key] = slot
        settle()
        return InterestID(slot: slot, generation: interests[slot].generation)
    }

    /// Removes `key` from `group`'s set; its load stops unless something
    /// else wants it.
    ///
    /// - Returns: whether the key was in the set, and its interest's payload.
    /// - Complexity: O(1) amortized.
    @discardableResult
    @inlinable
    public mutating func removeKey(_ key: Key, from group: GroupID) -> (removed: Bool, payload: Payload?) {
        precondition(isLive(group), "removeKey(_:from:): \(group) was removed")
        guard let slot = groupKeys[group.index][key] else { return (false, nil) }
        return (true, withdraw(slot: slot))
    }

    /// Whether `key` is in `group`'s set.
    /// - Complexity: O(1)
    @inlinable
    public func containsKey(_ key: Key, in group: GroupID) -> Bool {
        isLive(group) && groupKeys[group.index][key] != nil
    }

    /// The keys in `group`'s set: those whose load has not ended yet.
    /// - Complexity: O(1)
    @inlinable
    public func keyCount(in group: GroupID) -> Int {
        isLive(group) ? groupKeys[group.index].count : 0
    }

    /// Keys of `group`'s set whose load succeeded, since the group was made.
    /// - Complexity: O(1)
    @inlinable
    public func completedCount(in group: GroupID) -> Int {
        isLive(group) ? groups[group.index].completedCount : 0
    }

    /// Keys of `group`'s set whose load failed for good, since the group was made.
    /// - Complexity: O(1)
    @inlinable
    public func failedCount(in group: GroupID) -> Int {
        isLive(group) ? groups[group.index].failedCount : 0
    }

    /// Changes when `key`'s item is predicted to appear, for `group`'s
    /// interest in it; nothing happens when the key is not in the set.
    /// - Complexity: O(log n) plus the interests in `key`.
    @inlinable
    public mutating func setDeadline(_ deadline: Duration?, forKey key: Key, in group: GroupID) {
        precondition(isLive(group), "setDeadline(_:forKey:in:): \(group) was removed")
        guard let slot = groupKeys[group.index][key] else { return }
        setDeadline(deadline, ofSlot: slot)
        settle()
    }

    // MARK: Internals

    @inlinable
    mutating func appendToGroupList(_ interest: Int, admitted: Bool) {
        let group = interests[interest].group
        var ends = admitted ? groups[group].admitted : groups[group].waiting
        interests[interest].groupPrevious = ends.tail
        interests[interest].groupNext = -1
        if ends.tail == -1 { ends.head = interest } else { interests[ends.tail].groupNext = interest }
        ends.tail = interest
        if admitted { groups[group].admitted = ends } else { groups[group].waiting = ends }
    }

    @inlinable
    mutating func removeFromGroupList(_ interest: Int) {
        let group = interests[interest].group
        let admitted = interests[interest].isAdmitted
        var ends = admitted ? groups[group].admitted : groups[group].waiting
        let previous = interests[interest].groupPrevious
        let next = interests[interest].groupNext
        if previous == -1 { ends.head = next } else { interests[previous].groupNext = next }
        if next == -1 { ends.tail = previous } else { interests[next].groupPrevious = previous }
        if admitted { groups[group].admitted = ends } else { groups[group].waiting = ends }
    }

    /// Admits the group's waiting interests, FIFO, up to its limit.
    @inlinable
    mutating func admitWaiting(inGroup group: Int) {
        while !groups[group].isPaused, groups[group].admittedCount < groups[group].admissionLimit {
            let interest = groups[group].waiting.head
            guard interest != -1 else { return }
            admit(interest)
            reconcile(interests[interest].load)
        }
    }
}
