/// The interest events of `FetchScheduler`: interests added, withdrawn,
/// reprioritised and re-dated, and how an interest counts toward its load.
extension FetchScheduler {
    /// Registers an interest in `key`, starting or joining its load.
    ///
    /// - Parameters:
    ///   - key: what to load.
    ///   - priority: the interest's priority; ignored for groups, whose
    ///     interests all take the group's priority.
    ///   - deadline: when the interest's item is predicted to appear, on the
    ///     driver's timeline; `nil` for none. Within a priority, loads start
    ///     earliest deadline first, ahead of those without one.
    ///   - group: the prefetcher the interest belongs to.
    ///   - payload: what the driver gets back when the interest ends.
    /// - Returns: an identifier to withdraw or reprioritise the interest.
    /// - Complexity: O(1) amortized without a deadline; with one, O(log n)
    ///   plus the interests in `key`.
    @discardableResult
    @inlinable
    public mutating func addInterest(
        in key: Key,
        priority: FetchPriority = .normal,
        deadline: Duration? = nil,
        group: GroupID = .default,
        payload: Payload?
    ) -> InterestID {
        precondition(isLive(group), "addInterest: \(group) was removed")
        let interestSlot = register(key, priority: priority, deadline: deadline, group: group.index, payload: payload)
        settle()
        return InterestID(slot: interestSlot, generation: interests[interestSlot].generation)
    }

    /// Withdraws one interest. Its load is cancelled if it was the last one
    /// admitted; a load cancelled before it starts never starts.
    ///
    /// - Returns: the interest's payload, for the driver to resolve (an
    ///   awaiting caller gets a `CancellationError`), or `nil` when the interest
    ///   had no payload or had already ended.
    /// - Complexity: O(1) amortized.
    @discardableResult
    @inlinable
    public mutating func withdraw(_ id: InterestID) -> Payload? {
        guard isLive(id) else { return nil }
        return withdraw(slot: id.slot)
    }

    /// Lets go of a consumed prefetch its coordinator forgot (its item went
    /// out of reach): withdrawn if its load has not started — a row passed
    /// by does not go on to load — left to finish if it is loading.
    ///
    /// - Returns: whether it was withdrawn.
    /// - Complexity: O(1) amortized.
    @inlinable
    @discardableResult
    public mutating func letGo(_ id: InterestID) -> Bool {
        guard isLive(id), !isLoadRunning(forInterest: id) else { return false }
        _ = withdraw(slot: id.slot)
        return true
    }

    /// Withdraws every interest in `key` of the default group that has no
    /// payload (plain prefetches), leaving display requests and prefetchers'
    /// interests alone.
    ///
    /// - Returns: the number of interests withdrawn.
    /// - Complexity: O(interests in `key`).
    @discardableResult
    @inlinable
    public mutating func withdrawPrefetchInterests(in key: Key) -> Int {
        guard let loadSlot = loadSlots[key] else { return 0 }
        var withdrawn = 0
        var cursor = loads[loadSlot]!.head
        while cursor != -1 {
            let next = interests[cursor].loadNext
            if interests[cursor].group == 0, !interests[cursor].hasPayload {
                _ = detach(cursor)
                withdrawn += 1
            }
            cursor = next
        }
        if withdrawn > 0 {
            reconcile(loadSlot)
            settle()
        }
        return withdrawn
    }

    /// Changes the priority of an interest of the default group; its load
    /// moves if its highest priority changes.
    /// - Complexity: O(1) amortized.
    @inlinable
    public mutating func setPriority(_ priority: FetchPriority, of id: InterestID) {
        guard isLive(id) else { return }
        precondition(interests[id.slot].group == 0, "setPriority(_:of:): a group's interests take the group's priority")
        let old = interests[id.slot].priority
        guard old != priority else { return }
        let loadSlot = interests[id.slot].load
        interests[id.slot].priority = priority
        if interests[id.slot].isAdmitted {
            loads[loadSlot]!.active[old] -= 1
            loads[loadSlot]!.active[priority] += 1
        }
        reconcile(loadSlot)
        settle()
    }

    /// Changes when an interest's item is predicted to appear; its pending
    /// load moves within its priority if its earliest deadline changes.
    ///
    /// For an interest of any group: a prefetcher re-dates its keys as the
    /// user scrolls.
    /// - Complexity: O(log n) plus the interests in its key.
    @inlinable
    public mutating func setDeadline(_ deadline: Duration?, of id: InterestID) {
        guard isLive(id) else { return }
        setDeadline(deadline, ofSlot: id.slot)
        settle()
    }

    /// Withdraws every interest in every key (a driver shutting down).
    ///
    /// - Returns: the payloads of the withdrawn interests.
    /// - Complexity: O(keys + interests).
    @inlinable
    public mutating func withdrawAllInterests() -> [Payload] {
        var payloads: [Payload] = []
        for slot in loads.indices where loads[slot] != nil {
            var cursor = loads[slot]!.head
            while cursor != -1 {
                let next = interests[cursor].loadNext
                if let payload = detach(cursor) { payloads.append(payload) }
                cursor = next
            }
            reconcile(slot)
        }
        settle()
        return payloads
    }

    // MARK: Internals

    /// Creates an interest and lets it count; the caller settles.
    @inlinable
    mutating func register(
        _ key: Key, priority: FetchPriority, deadline: Duration?, group: Int, payload: Payload?
    ) -> Int {
        let loadSlot = slotForLoad(of: key)
        let interestSlot = allocateInterest()
        interests[interestSlot].load = loadSlot
        interests[interestSlot].group = group
        interests[interestSlot].priority = group == 0 ? priority : groups[group].priority
        interests[interestSlot].deadline = deadline
        interests[interestSlot].hasPayload = payload != nil
        payloads[interestSlot] = payload
        appendToLoadList(interestSlot, load: loadSlot)
        if group == 0 {
            admit(interestSlot)
        } else {
            appendToGroupList(interestSlot, admitted: false)
            admitWaiting(inGroup: group)
        }
        reconcile(loadSlot)
        return interestSlot
    }

    /// Withdraws a live interest and settles.
    @inlinable
    mutating func withdraw(slot: Int) -> Payload? {
        let loadSlot = interests[slot].load
        let group = interests[slot].group
        let payload = detach(slot)
        reconcile(loadSlot)
        if group != 0 { touchedGroups.append(group) }
        settle()
        return payload
    }

    /// Re-dates a live interest and reconciles its load; the caller settles.
    @inlinable
    mutating func setDeadline(_ deadline: Duration?, ofSlot slot: Int) {
        let old = interests[slot].deadline
        guard old != deadline else { return }
        interests[slot].deadline = deadline
        if isActive(slot), (old == nil) != (deadline == nil) {
            loads[interests[slot].load]!.datedCount += deadline == nil ? -1 : 1
        }
        reconcile(interests[slot].load)
    }

    /// Whether the interest counts toward its load's priority and deadline.
    @inlinable
    func isActive(_ interest: Int) -> Bool {
        interests[interest].isAdmitted && !groups[interests[interest].group].isPaused
    }

    /// Adds (`delta` 1) or removes (-1) an active interest's priority and
    /// deadline from its load's counts.
    @inlinable
    mutating func countActive(_ interest: Int, _ delta: Int32) {
        let load = interests[interest].load
        loads[load]!.active[interests[interest].priority] += delta
        if interests[interest].deadline != nil { loads[load]!.datedCount += Int(delta) }
    }

    /// Counts the interest toward its load (and its group's limit).
    @inlinable
    mutating func admit(_ interest: Int) {
        let load = interests[interest].load
        let group = interests[interest].group
        if group != 0 {
            removeFromGroupList(interest)
            interests[interest].isAdmitted = true
            appendToGroupList(interest, admitted: true)
            groups[group].admittedCount += 1
        } else {
            interests[interest].isAdmitted = true
        }
        loads[load]!.admittedCount += 1
        if !groups[group].isPaused { countActive(interest, 1) }
    }

    /// Removes an interest from every list and frees it; the caller reconciles its load.
    @inlinable
    mutating func detach(_ interest: Int) -> Payload? {
        let load = interests[interest].load
        let group = interests[interest].group
        removeFromLoadList(interest)
        if group != 0 {
            removeFromGroupList(interest)
            if interests[interest].isKeyed {
                groupKeys[group][loadKeys[load]!] = nil
                interests[interest].isKeyed = false
            }
        }
        if interests[interest].isAdmitted {
            loads[load]!.admittedCount -= 1
            if !groups[group].isPaused { countActive(interest, -1) }
            if group != 0 {
                groups[group].admittedCount -= 1
                touchedGroups.append(group)
            }
        }
        var payload: Payload?
        if interests[interest].hasPayload {
            payload = payloads[interest].take()
            interests[interest].hasPayload = false
        }
        interests[interest].isLive = false
        interests[interest].isAdmitted = false
        interests[interest].deadline = nil
        interests[interest].generation &+= 1
        freeInterests.append(interest)
        return payload
    }
}
