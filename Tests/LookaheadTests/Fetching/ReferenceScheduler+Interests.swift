// The reference model's interests: registering, withdrawing and changing
// one interest (or every interest of a key), as the scheduler documents them.

import Lookahead

extension ReferenceScheduler {
    mutating func addInterest(
        in key: Int, priority: FetchPriority, deadline: Duration? = nil, group: Int, payload: Int?,
        isKeyed: Bool = false
    ) -> Int {
        precondition(group == 0 || isLive(group: group), "model: addInterest to a removed group")
        if !loads.contains(where: { $0.key == key }) { loads.append(Load(key: key)) }
        let id = nextInterestID
        nextInterestID += 1
        let interestPriority = group == 0 ? priority : self.group(group)!.priority
        interests.append(
            Interest(
                id: id, key: key, group: group, priority: interestPriority, payload: payload, deadline: deadline,
                isKeyed: isKeyed))
        if group == 0 {
            admit(interests.count - 1)
        } else {
            admitWaiting(inGroup: group)
        }
        reconcile(key)
        settle()
        return id
    }

    mutating func withdraw(_ id: Int) -> Int? {
        guard let index = interests.firstIndex(where: { $0.id == id }) else { return nil }
        let interest = interests[index]
        let payload = detach(index)
        reconcile(interest.key)
        if interest.group != 0 { touchedGroups.append(interest.group) }
        settle()
        return payload
    }

    /// A group holds one keyed interest per key: `nil` when the key has one.
    mutating func addKey(_ key: Int, to group: Int, deadline: Duration?, payload: Int?) -> Int? {
        guard !interests.contains(where: { $0.group == group && $0.key == key && $0.isKeyed }) else { return nil }
        return addInterest(
            in: key, priority: .normal, deadline: deadline, group: group, payload: payload, isKeyed: true)
    }

    mutating func removeKey(_ key: Int, from group: Int) -> (removed: Bool, payload: Int?) {
        guard let interest = interests.first(where: { $0.group == group && $0.key == key && $0.isKeyed }) else {
            return (false, nil)
        }
        return (true, withdraw(interest.id))
    }

    mutating func setDeadline(_ deadline: Duration?, of id: Int) {
        guard let index = interests.firstIndex(where: { $0.id == id }) else { return }
        guard interests[index].deadline != deadline else { return }
        interests[index].deadline = deadline
        reconcile(interests[index].key)
        settle()
    }

    mutating func withdrawPrefetchInterests(in key: Int) -> Int {
        let before = interests.count
        interests.removeAll { $0.key == key && $0.group == 0 && $0.payload == nil }
        let withdrawn = before - interests.count
        if withdrawn > 0 {
            reconcile(key)
            settle()
        }
        return withdrawn
    }

    mutating func setPriority(_ priority: FetchPriority, of id: Int) {
        guard let index = interests.firstIndex(where: { $0.id == id }) else { return }
        precondition(interests[index].group == 0, "model: setPriority(_:of:) on a group's interest")
        guard interests[index].priority != priority else { return }
        interests[index].priority = priority
        reconcile(interests[index].key)
        settle()
    }

    /// The payloads come back in no documented order (the implementation goes
    /// key by key in the order of its internal slots), nor do the cancellations:
    /// the test compares both as multisets.
    mutating func withdrawAllInterests() -> [Int] {
        let payloads = interests.compactMap(\.payload)
        for interest in interests where interest.isAdmitted && interest.group != 0 {
            touchedGroups.append(interest.group)
        }
        interests.removeAll()
        for key in loads.map(\.key) {
            reconcile(key)
        }
        settle()
        return payloads
    }
}
