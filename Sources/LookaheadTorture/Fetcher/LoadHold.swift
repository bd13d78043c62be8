// Where the torture loader's long loads wait: they stay running until the run
// releases them, so that cancellations and priority changes meet running work.

import Lookahead

/// A gate for loads: `wait` suspends until `releaseAll()` or `open()`.
///
/// A wait that honours cancellation ends early when its task is cancelled;
/// one that does not keeps waiting, like a loader that ignores cancellation
/// and finishes anyway.
final class LoadHold: Sendable {
    private enum Phase {
        /// Registered, not yet suspended.
        case pending
        case waiting(CheckedContinuation<Bool, Never>)
        /// Cancelled before it could suspend.
        case cancelled
    }

    private struct State {
        var isOpen = false
        var nextID = 0
        var phases: [Int: Phase] = [:]
    }

    private let state = LockedValue(State())

    /// Waits until released.
    ///
    /// - Returns: `true` when released, `false` when cancelled first (only
    ///   when `honoursCancellation`).
    func wait(honoursCancellation: Bool) async -> Bool {
        let id: Int? = state.withLock { state in
            if state.isOpen { return nil }
            defer { state.nextID += 1 }
            state.phases[state.nextID] = .pending
            return state.nextID
        }
        guard let id else { return true }
        guard honoursCancellation else { return await suspend(id) }
        return await withTaskCancellationHandler {
            await suspend(id)
        } onCancel: {
            let continuation: CheckedContinuation<Bool, Never>? = state.withLock { state in
                switch state.phases[id] {
                case .waiting(let continuation):
                    state.phases[id] = nil
                    return continuation
                case .pending:
                    state.phases[id] = .cancelled
                    return nil
                case .cancelled, nil:
                    return nil
                }
            }
            continuation?.resume(returning: false)
        }
    }

    private func suspend(_ id: Int) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let immediate: Bool? = state.withLock { state in
                switch state.phases[id] {
                case .cancelled:
                    state.phases[id] = nil
                    return false
                case .pending:
                    if state.isOpen {
                        state.phases[id] = nil
                        return true
                    }
                    state.phases[id] = .waiting(continuation)
                    return nil
                case .waiting, nil:
                    // Released between registering and suspending.
                    return true
                }
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
    }

    /// Releases every load waiting now; later ones wait again.
    func releaseAll() {
        let continuations = state.withLock { state in
            var continuations: [CheckedContinuation<Bool, Never>] = []
            for (id, phase) in state.phases {
                if case .waiting(let continuation) = phase {
                    continuations.append(continuation)
                    state.phases[id] = nil
                }
            }
            return continuations
        }
        for continuation in continuations { continuation.resume(returning: true) }
    }

    /// Releases every load, now and until `close()`.
    func open() {
        state.withLock { $0.isOpen = true }
        releaseAll()
    }

    /// Makes loads wait again.
    func close() {
        state.withLock { $0.isOpen = false }
    }
}
