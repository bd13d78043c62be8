/// Loads in flight over one shared link, in virtual time: a pure fluid model
/// the simulator's event loop drives.
///
/// A load is a latency phase (waiting for the first byte; no bandwidth used)
/// followed by a transfer phase, during which every load currently
/// transferring gets an equal share of the bandwidth (processor sharing).
/// With ``NetworkModel/Bandwidth/unlimited`` the transfer phase takes no time:
/// a load completes at its start plus its latency. A load started `failing`
/// takes its latency, receives nothing and completes as failed — the server
/// answered, with an error.
///
/// The caller owns the clock: it asks ``nextCompletion()`` for the next
/// completion, takes it with ``complete(_:at:)`` (or all completions up to a
/// time with ``advance(to:)``), and may ``start(_:latency:bytes:failing:at:)``
/// or ``cancel(_:at:)`` loads at any time, as long as it never skips a
/// completion: starting or cancelling at `t` requires every completion before
/// `t` to have been taken (completions exactly at `t` may still be pending).
///
/// Determinism: loads live in an array sorted by id, every quantity is
/// updated in that order, times are whole nanoseconds, and simultaneous
/// completions go smaller id first, so the same calls give the same results
/// bit for bit. Byte counts are `Double` (the fluid model splits bytes);
/// a completion time is the nearest nanosecond to the exact one.
///
/// - Invariant: `loads` is sorted by id, ids unique; a transferring load's
///   remaining bytes are in `0...bytes`; a load still in its latency phase has
///   its first byte at or after `now`.
public struct TransferSimulator: Sendable {
    /// A load that has ended on its own (not cancelled).
    public struct Completion: Sendable, Hashable {
        /// The id the load was started with.
        public var id: Int
        /// When it completed.
        public var time: Duration
        /// Whether it was started `failing`: it ended after its latency with nothing received.
        public var failed: Bool
        /// The bytes it received: its payload, or 0 if it failed.
        public var bytes: Int
    }

    private struct Load: Sendable {
        let id: Int
        /// When the latency phase ends, in nanoseconds.
        let firstByte: Int64
        let bytes: Int
        let fails: Bool
        /// Whether the load is in its transfer phase.
        var isTransferring = false
        /// Bytes still to receive; meaningful only while transferring.
        var remaining: Double = 0

        /// The bytes received so far, whole.
        var bytesReceived: Int {
            guard isTransferring else { return 0 }
            return min(bytes, max(0, Int((Double(bytes) - remaining).rounded(.down))))
        }
    }

    /// The link's capacity in bits per second, `nil` if unlimited.
    private let bitsPerSecond: Double?
    private var loads: [Load] = []
    private var nowNanoseconds: Int64 = 0
    /// Bytes received by loads that have ended (completed or cancelled).
    private var endedBytes = 0

    /// Creates an idle link at `start` (before zero when loads start ahead
    /// of the first frame).
    ///
    /// - Precondition: a limited bandwidth is positive and finite.
    public init(bandwidth: NetworkModel.Bandwidth, start: Duration = .zero) {
        nowNanoseconds = NetworkModel.nanoseconds(start)
        switch bandwidth {
        case .unlimited:
            bitsPerSecond = nil
        case .bitsPerSecond(let bits):
            precondition(bits > 0 && bits.isFinite, "TransferSimulator: bandwidth must be positive, got \(bits)")
            bitsPerSecond = bits
        }
    }

    // MARK: - State

    /// The time up to which the link has been simulated.
    public var now: Duration { .nanoseconds(nowNanoseconds) }

    /// The loads started and not yet completed or cancelled.
    public var inFlightCount: Int { loads.count }

    /// The loads in their transfer phase, sharing the bandwidth.
    ///
    /// - Complexity: O(in flight).
    public var transferringCount: Int {
        loads.reduce(0) { $0 + ($1.isTransferring ? 1 : 0) }
    }

    /// All bytes received up to ``now``: completed loads' payloads, the part
    /// cancelled loads had received, and what loads in flight have received
    /// so far (each rounded down to whole bytes). Never decreases.
    ///
    /// - Complexity: O(in flight).
    public var bytesTransferred: Int {
        loads.reduce(endedBytes) { $0 + $1.bytesReceived }
    }

    /// Whether a load with this id is in flight.
    ///
    /// - Complexity: O(log in flight).
    public func isInFlight(_ id: Int) -> Bool {
        let index = insertionIndex(of: id)
        return index < loads.count && loads[index].id == id
    }

    // MARK: - Events

    /// Starts a load at `time`.
    ///
    /// - Parameters:
    ///   - id: Chosen by the caller, unique among the loads in flight.
    ///   - latency: The time to first byte (``NetworkModel/latency(forItem:attempt:)``).
    ///   - bytes: The payload (``NetworkModel/payloadBytes(forItem:)``).
    ///   - failing: Whether this attempt fails (``NetworkModel/fails(item:attempt:)``):
    ///     it then completes after its latency, failed, having received nothing.
    ///   - time: Not before ``now``; every completion before it already taken.
    /// - Complexity: O(in flight) per event the link passes on the way to `time`.
    public mutating func start(_ id: Int, latency: Duration, bytes: Int, failing: Bool = false, at time: Duration) {
        precondition(latency >= .zero, "TransferSimulator: load \(id) has a negative latency \(latency)")
        precondition(bytes >= 0, "TransferSimulator: load \(id) has a negative size \(bytes)")
        catchUp(to: time, for: "start load \(id)")
        let index = insertionIndex(of: id)
        precondition(
            index == loads.count || loads[index].id != id, "TransferSimulator: load \(id) is already in flight")
        loads.insert(
            Load(id: id, firstByte: nowNanoseconds + NetworkModel.nanoseconds(latency), bytes: bytes, fails: failing),
            at: index)
        // A load without latency starts transferring now, and counts as such at once.
        catchUp(to: time, for: "start load \(id)")
        checkInvariants()
    }

    /// Cancels a load in flight at `time`; what it had received counts in
    /// ``bytesTransferred``, and its share of the bandwidth goes to the others.
    ///
    /// - Precondition: `id` is in flight; `time` is not before ``now`` and
    ///   every completion before it has been taken.
    /// - Complexity: O(in flight) per event the link passes on the way to `time`.
    public mutating func cancel(_ id: Int, at time: Duration) {
        catchUp(to: time, for: "cancel load \(id)")
        let index = insertionIndex(of: id)
        precondition(index < loads.count && loads[index].id == id, "TransferSimulator: load \(id) is not in flight")
        endedBytes += loads[index].bytesReceived
        loads.remove(at: index)
        checkInvariants()
    }

    /// The earliest completion among the loads in flight, assuming nothing is
    /// started or cancelled before it; simultaneous completions go smaller id
    /// first. `nil` when nothing is in flight.
    ///
    /// Loads that reach their transfer phase before then are accounted for
    /// (they slow the others down).
    ///
    /// - Complexity: O(in flight²) at worst: O(in flight) per phase change on the way.
    public func nextCompletion() -> Completion? {
        guard !loads.isEmpty else { return nil }
        var copy = self
        return copy.run(until: .max, takingCompletionsAtTarget: true, stoppingAtFirstCompletion: true).first
    }

    /// Takes the completion of load `id` at `time`, which must be when it is
    /// due (as ``nextCompletion()`` reported).
    ///
    /// - Precondition: `id` is in flight and completes exactly at `time`;
    ///   every other completion before `time` has been taken.
    /// - Complexity: O(in flight) per event the link passes on the way to `time`.
    @discardableResult
    public mutating func complete(_ id: Int, at time: Duration) -> Completion {
        catchUp(to: time, for: "complete load \(id)")
        let index = insertionIndex(of: id)
        precondition(index < loads.count && loads[index].id == id, "TransferSimulator: load \(id) is not in flight")
        let load = loads[index]
        precondition(
            eventTime(of: load, sharers: transferringCount) == nowNanoseconds
                && (load.isTransferring || !transfersPayload(load)),
            "TransferSimulator: load \(id) does not complete at \(time)")
        loads.remove(at: index)
        let completion = completion(of: load, at: nowNanoseconds)
        endedBytes += completion.bytes
        checkInvariants()
        return completion
    }

    /// Moves the link to `time` and returns every load completed by then
    /// (`time` included), in time order, simultaneous ones smaller id first.
    ///
    /// - Precondition: `time` is not before ``now``.
    /// - Complexity: O(in flight) per event on the way.
    public mutating func advance(to time: Duration) -> [Completion] {
        let target = NetworkModel.nanoseconds(time)
        precondition(target >= nowNanoseconds, "TransferSimulator: advance(to: \(time)) goes back from \(now)")
        let completions = run(until: target, takingCompletionsAtTarget: true)
        checkInvariants()
        return completions
    }

    // MARK: - Fluid model

    /// Runs to `time`, leaving completions exactly at `time` pending, and traps
    /// if one before it was skipped.
    private mutating func catchUp(to time: Duration, for operation: @autoclosure () -> String) {
        let target = NetworkModel.nanoseconds(time)
        precondition(target >= nowNanoseconds, "TransferSimulator: cannot \(operation()) at \(time), before \(now)")
        let skipped = run(until: target, takingCompletionsAtTarget: false)
        precondition(
            skipped.isEmpty,
            "TransferSimulator: cannot \(operation()) at \(time): loads \(skipped.map(\.id)) completed before then; "
                + "take them with complete(_:at:) or advance(to:) first")
    }

    /// Processes phase changes and completions in time order up to `target`.
    ///
    /// Each step finds the earliest event under the current sharing, moves
    /// every transferring load forward to it, and applies every event due
    /// then in id order; a step at `now` happens when a phase change leaves a
    /// load due at once. Terminates: each step moves time forward or ends a
    /// phase, and a load has two phases.
    private mutating func run(
        until target: Int64, takingCompletionsAtTarget takesCompletionsAtTarget: Bool,
        stoppingAtFirstCompletion: Bool = false
    ) -> [Completion] {
        var target = target
        var completions: [Completion] = []
        while !loads.isEmpty {
            let sharers = transferringCount
            let eventTimes = loads.map { eventTime(of: $0, sharers: sharers) }
            let next = eventTimes.min()!
            guard next <= target else { break }
            advanceTransfers(to: next, sharers: sharers)
            let holdsCompletions = next == target && !takesCompletionsAtTarget
            var changedPhase = false
            var kept: [Load] = []
            kept.reserveCapacity(loads.count)
            for (var load, time) in zip(loads, eventTimes) {
                guard time == next else {
                    kept.append(load)
                    continue
                }
                if load.isTransferring {
                    // Due now: whatever rounding left is received now.
                    load.remaining = 0
                } else if transfersPayload(load) {
                    load.isTransferring = true
                    load.remaining = Double(load.bytes)
                    changedPhase = true
                    kept.append(load)
                    continue
                }
                if holdsCompletions {
                    kept.append(load)
                } else {
                    let completion = completion(of: load, at: next)
                    endedBytes += completion.bytes
                    completions.append(completion)
                }
            }
            loads = kept
            if !completions.isEmpty && stoppingAtFirstCompletion {
                // Only a phase change can still make a load due at this very time.
                guard changedPhase else { break }
                target = next
            } else if holdsCompletions && !changedPhase {
                break
            }
        }
        if target != .max && nowNanoseconds < target {
            advanceTransfers(to: target, sharers: transferringCount)
        }
        completions.sort { ($0.time, $0.id) < ($1.time, $1.id) }
        return completions
    }

    /// When `load`'s next event is due: the end of its latency phase, or the
    /// end of its transfer if `sharers` keep sharing the link as they do now.
    private func eventTime(of load: Load, sharers: Int) -> Int64 {
        guard load.isTransferring, let bitsPerSecond else { return load.firstByte }
        // remaining · 8 bits · sharers / (bits per second) seconds, in nanoseconds;
        // multiplied first so that hand-computable cases stay exact.
        let nanoseconds = (load.remaining * (8e9 * Double(sharers)) / bitsPerSecond).rounded()
        // (In doubles: `now` is negative when loads start ahead of the first frame.)
        guard nanoseconds < Double(Int64.max) - Double(nowNanoseconds) else { return .max }
        return nowNanoseconds + Int64(nanoseconds)
    }

    /// Moves time to `time`, with `sharers` loads splitting the link until then.
    private mutating func advanceTransfers(to time: Int64, sharers: Int) {
        if sharers > 0, time > nowNanoseconds, let bitsPerSecond {
            let bytesEach = Double(time - nowNanoseconds) * bitsPerSecond / (8e9 * Double(sharers))
            for index in loads.indices where loads[index].isTransferring {
                loads[index].remaining = max(0, loads[index].remaining - bytesEach)
            }
        }
        nowNanoseconds = time
    }

    /// Whether `load` has a transfer phase at all: not failing, not empty, on a limited link.
    private func transfersPayload(_ load: Load) -> Bool {
        !load.fails && load.bytes > 0 && bitsPerSecond != nil
    }

    private func completion(of load: Load, at time: Int64) -> Completion {
        Completion(id: load.id, time: .nanoseconds(time), failed: load.fails, bytes: load.fails ? 0 : load.bytes)
    }

    /// The index of `id` in `loads`, or where it would be inserted.
    private func insertionIndex(of id: Int) -> Int {
        var low = 0
        var high = loads.count
        while low < high {
            let middle = (low + high) / 2
            if loads[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Checks the type's invariants, in debug builds only.
    private func checkInvariants() {
        #if DEBUG
        for index in loads.indices {
            let load = loads[index]
            precondition(index == 0 || loads[index - 1].id < load.id, "TransferSimulator: loads out of id order")
            if load.isTransferring {
                precondition(
                    transfersPayload(load) && load.firstByte <= nowNanoseconds, "TransferSimulator: bad phase")
                precondition(
                    load.remaining >= 0 && load.remaining <= Double(load.bytes), "TransferSimulator: bad remaining")
            } else {
                precondition(load.firstByte >= nowNanoseconds, "TransferSimulator: a latency phase ended unnoticed")
            }
        }
        #endif
    }
}
