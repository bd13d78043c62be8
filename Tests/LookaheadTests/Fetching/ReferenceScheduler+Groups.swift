// The reference model's groups (one prefetcher each): admission limits,
// pausing, group priorities and withdrawing a group's interests.

import Lookahead

extension ReferenceScheduler {
    mutating func makeGroup(priority: FetchPriority, admissionLimit: Int) -> Int {
        let id = nextGroupID
        nextGroupID += 1
        groups.append(Group(id: id, priority: priority, admissionLimit: admissionLimit))
        return id
    }

    mutating func removeGroup(_ id: Int) -> [Int] {
        guard isLive(group: id) else { return [] }
        let payloads = withdrawAll(inGroup: id)
        groups.removeAll { $0.id == id }
        return payloads
    }

    /// Waiting interests go first, in the order they came, then admitted ones
    /// in the order they were admitted, each load reconciled as soon as its
    /// interest leaves: the implementation's order, which decides the order of
    /// the payloads and of the cancellations.
    mutating func withdrawAll(inGroup id: Int) -> [Int] {
        precondition(isLive(group: id), "model: withdrawAll(inGroup:) on a removed group")
        var payloads: [Int] = []
        for interestID in waitingInterests(of: id) + admittedInterests(of: id) {
            let index = interests.firstIndex { $0.id == interestID }!
            let key = interests[index].key
            if let payload = detach(index) { payloads.append(payload) }
            reconcile(key)
        }
        settle()
        return payloads
    }

    /// Every admitted interest is paused (or resumed) first, then each load
    /// is reconciled once, in the order its interests were admitted (the
    /// implementation's order: it decides which load ends up first).
    mutating func setPaused(_ isPaused: Bool, group id: Int) {
        let position = groups.firstIndex { $0.id == id }!
        guard groups[position].isPaused != isPaused else { return }
        groups[position].isPaused = isPaused
        // Every interest first, then each load once, in admission order.
        let admitted = admittedInterests(of: id)
        for interestID in admitted {
            let index = interests.firstIndex { $0.id == interestID }!
            interests[index].isHeldByPause = isPaused
        }
        for interestID in admitted {
            reconcile(interests.first { $0.id == interestID }!.key)
        }
        admitWaiting(inGroup: id)
        settle()
    }

    /// Admitted interests first, in the order they were admitted, then waiting
    /// ones; each load is reconciled as soon as one of its interests changes,
    /// while its other interests of the group still have the old priority (the
    /// implementation's order: it decides which lowered load ends up first).
    mutating func setPriority(_ priority: FetchPriority, group id: Int) {
        let position = groups.firstIndex { $0.id == id }!
        guard groups[position].priority != priority else { return }
        groups[position].priority = priority
        let isPaused = groups[position].isPaused
        for interestID in admittedInterests(of: id) + waitingInterests(of: id) {
            let index = interests.firstIndex { $0.id == interestID }!
            interests[index].priority = priority
            if interests[index].isAdmitted && !isPaused { reconcile(interests[index].key) }
        }
        settle()
    }

    mutating func setAdmissionLimit(_ limit: Int, group id: Int) {
        let position = groups.firstIndex { $0.id == id }!
        groups[position].admissionLimit = limit
        admitWaiting(inGroup: id)
        settle()
    }
}
