/// The invariants of `FetchScheduler`, checked by brute force: the
/// randomized model test calls `checkInvariants()` after every operation.
extension FetchScheduler {
    /// Verifies every invariant of the scheduler by brute force, stopping the
    /// program with a description of the first one broken.
    ///
    /// For tests: it walks every load, interest, group and queue entry.
    /// - Complexity: O(keys + interests + queued entries).
    @inlinable
    package func checkInvariants() {
        var pending = 0
        var running = 0
        var cancelled = 0
        var cancelledAttempts = 0
        var backingOff = 0
        var liveInterests = 0
        precondition(loadKeys.count == loads.count, "\(loadKeys.count) load keys for \(loads.count) load slots")
        precondition(groupKeys.count == groups.count, "\(groupKeys.count) group key indexes for \(groups.count) groups")
        for (slot, record) in loads.enumerated() {
            precondition(
                (record == nil) == (loadKeys[slot] == nil), "load slot \(slot)'s key does not match its record")
            guard let record else { continue }
            if case .cancelled(_, let hedge) = record.state {
                cancelled += 1
                cancelledAttempts += hedge == nil ? 1 : 2
                precondition(record.interestCount == 0 && record.head == -1, "cancelled load \(slot) has interests")
                precondition(loadSlots[loadKeys[slot]!] != slot, "cancelled load \(slot) is still its key's")
                continue
            }
            precondition(loadSlots[loadKeys[slot]!] == slot, "load slot \(slot) is not indexed by its key")
            var count = 0
            var admitted = 0
            var active = PriorityCounts()
            var dated = 0
            var earliest: Duration?
            var previous = -1
            var cursor = record.head
            while cursor != -1 {
                let interest = interests[cursor]
                precondition(interest.isLive, "a dead interest is in load \(slot)'s list")
                precondition(interest.load == slot, "interest \(cursor) is listed under the wrong load")
                precondition(interest.loadPrevious == previous, "load \(slot)'s list is broken at \(cursor)")
                count += 1
                if interest.isAdmitted {
                    admitted += 1
                    if !groups[interest.group].isPaused {
                        active[interest.priority] += 1
                        if let deadline = interest.deadline {
                            dated += 1
                            earliest = min(earliest ?? deadline, deadline)
                        }
                    }
                }
                previous = cursor
                cursor = interest.loadNext
            }
            precondition(record.tail == previous, "load \(slot)'s tail is wrong")
            precondition(count == record.interestCount, "load \(slot) counts \(record.interestCount), has \(count)")
            precondition(admitted == record.admittedCount, "load \(slot)'s admitted count is wrong")
            precondition(active == record.active, "load \(slot)'s priority counts are wrong")
            precondition(dated == record.datedCount, "load \(slot) counts \(record.datedCount) deadlines, has \(dated)")
            precondition(queue.contains(slot) == (pendingPriority(record.state) != nil), "load \(slot)'s queue entry")
            switch record.state {
            case .idle:
                precondition(active.highest == nil, "load \(slot) is wanted but not queued")
                precondition(count > 0, "load \(slot) is idle with no interest and was not freed")
            case .pending(let priority, let deadline):
                pending += 1
                precondition(active.highest == priority, "load \(slot) is queued at the wrong priority")
                precondition(
                    deadline == earliest, "load \(slot) is queued by \(deadline as Any), due \(earliest as Any)")
            case .running:
                running += 1
                precondition(admitted > 0, "load \(slot) runs for nobody")
            case .hedgeQueued:
                running += 1
                pending += 1
                precondition(admitted > 0 && record.hasHedged, "load \(slot) queues a hedge for nobody")
                precondition(
                    queue.deadline(of: slot) == earliest,
                    "load \(slot)'s hedge is queued by \(queue.deadline(of: slot) as Any), due \(earliest as Any)")
            case .hedged(let serial, let hedge, _):
                running += 2
                precondition(admitted > 0, "load \(slot) runs twice for nobody")
                precondition(record.hasHedged && serial != hedge, "load \(slot)'s hedge is not its one hedge")
            case .backingOff:
                backingOff += 1
                precondition(admitted > 0, "load \(slot) backs off for nobody")
            case .cancelled:
                preconditionFailure("unreachable: cancelled loads were skipped")
            }
        }
        precondition(
            loadSlots.count == loads.count(where: { $0 != nil }) - cancelled, "the key index and the loads disagree")
        for interest in interests where interest.isLive {
            liveInterests += 1
            precondition(loads[interest.load] != nil, "a live interest points at a freed load")
        }
        precondition(liveInterests + freeInterests.count == interests.count, "interest slots leaked")
        for (index, group) in groups.enumerated() where index != 0 && group.isLive {
            var admitted = 0
            var keyed = 0
            for (list, isAdmitted) in [(group.admitted, true), (group.waiting, false)] {
                var cursor = list.head
                var previous = -1
                while cursor != -1 {
                    precondition(
                        interests[cursor].isLive && interests[cursor].group == index, "group \(index)'s list is broken")
                    precondition(interests[cursor].isAdmitted == isAdmitted, "interest \(cursor) is in the wrong list")
                    precondition(interests[cursor].groupPrevious == previous, "group \(index)'s links are broken")
                    if isAdmitted { admitted += 1 }
                    if interests[cursor].isKeyed {
                        keyed += 1
                        let key = loadKeys[interests[cursor].load]!
                        precondition(
                            groupKeys[index][key] == cursor, "group \(index)'s key index misses interest \(cursor)")
                    }
                    previous = cursor
                    cursor = interests[cursor].groupNext
                }
                precondition(list.tail == previous, "group \(index)'s tail is wrong")
            }
            precondition(
                keyed == groupKeys[index].count, "group \(index) indexes \(groupKeys[index].count) keys, has \(keyed)")
            precondition(admitted == group.admittedCount, "group \(index)'s admitted count is wrong")
            precondition(
                group.isPaused || admitted >= group.admissionLimit || group.waiting.head == -1,
                "group \(index) leaves interests waiting below its limit")
        }
        precondition(pending == queue.count, "pendingCount is \(queue.count), counted \(pending)")
        precondition(
            running + cancelledAttempts == _runningCount,
            "runningCount is \(_runningCount), counted \(running)+\(cancelledAttempts)")
        precondition(backingOff == _backingOffCount, "backingOffCount is wrong")
        queue.checkInvariants()
    }

    @inlinable
    func pendingPriority(_ state: LoadState) -> FetchPriority? {
        switch state {
        case .pending(let priority, _), .hedgeQueued(_, let priority): priority
        default: nil
        }
    }
}
