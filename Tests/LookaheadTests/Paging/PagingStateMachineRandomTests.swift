import LookaheadTestSupport
import Testing

@testable import Lookahead

/// Random scrolling over a fake server that answers in random order and
/// fails at random, checked against the server's list after every step.
@Suite(.queuedOnTheHeavyTestThread)
struct PagingStateMachineRandomTests {
    @Test(arguments: [
        (PagingConfiguration.Mode.offset, false, nil as Int?),
        (.offset, true, 60),
        (.cursor, false, 60),
        (.cursor, true, nil),
    ])
    func randomScrolling(mode: PagingConfiguration.Mode, reportsTotalCount: Bool, maxSize: Int?) async {
        await onHeavyTestThread {
            for seed: UInt64 in [1, 2, 3] {
                run(seed: seed, mode: mode, reportsTotalCount: reportsTotalCount, maxSize: maxSize, steps: 10_000)
            }
        }
    }

    /// A long synchronous loop: the test runs it on the heavy tests' thread,
    /// where it holds none of the cooperative pool's few threads.
    func run(seed: UInt64, mode: PagingConfiguration.Mode, reportsTotalCount: Bool, maxSize: Int?, steps: Int) {
        var random = SeededRandom(seed: seed)
        let context = "seed \(seed), \(mode), totalCount \(reportsTotalCount), maxSize \(String(describing: maxSize))"
        let server = FakePageServer(count: 50 + random.next(below: 350), reportsTotalCount: reportsTotalCount)
        let configuration = PagingConfiguration(
            mode: mode, pageSize: 10, maxSize: maxSize, retryPolicy: RetryPolicy(maxAttempts: 3))
        var machine = PagingStateMachine<Row>(configuration: configuration)
        var inFlight: [PageRequest] = []
        var backingOff: [PageRequest] = []
        var position = 0
        var failures = 0
        var drops = 0
        var prepends = 0

        func apply(_ actions: [PagingStateMachine<Row>.Action], before: [Row], leadingBefore: Int) -> Bool {
            for action in actions {
                switch action {
                case .load(let request):
                    // Then no page is requested while it is already in flight
                    guard !inFlight.contains(request) else {
                        Issue.record("\(context): \(request) requested twice")
                        return false
                    }
                    inFlight.append(request)
                    if request.direction == .prepend { prepends += 1 }
                case .retry(let request, _):
                    backingOff.append(request)
                case .cancel(let request):
                    inFlight.removeAll { $0 == request }
                case .dropped:
                    drops += 1
                    // Then nothing near the last access is dropped (ids are positions)
                    let last = machine.lastAccess!
                    let kept = Set(machine.items.map(\.id))
                    for row in before where abs(row.id - last) <= configuration.protectedDistance {
                        guard kept.contains(row.id) else {
                            Issue.record("\(context): dropped \(row.id) near \(last)")
                            return false
                        }
                    }
                }
            }
            return true
        }

        // Seeds 2 and 3 start with a first screen (below and above the first load), seed 1 without.
        let firstScreen: Int? =
            switch seed {
            case 2: 7
            case 3: configuration.initialLoadSize + 4
            default: nil
            }
        _ = apply(machine.start(firstScreenItemCount: firstScreen), before: [], leadingBefore: 0)
        for step in 0..<steps {
            let before = Array(machine.items)
            let leadingBefore = machine.leadingPlaceholderCount
            let actions: [PagingStateMachine<Row>.Action]
            let roll = random.next(below: 100)
            if roll < 55, machine.itemCount > 0 {
                position +=
                    random.chance(0.02) ? random.next(below: machine.itemCount) - position : random.next(below: 31) - 12
                position = min(max(0, position), machine.itemCount - 1)
                actions = machine.accessed(index: position)
            } else if roll < 85, !inFlight.isEmpty {
                let request = inFlight.remove(at: random.next(below: inFlight.count))
                if random.chance(0.15) {
                    failures += 1
                    actions = machine.pageFailed(request: request, error: "e", isTransient: random.chance(0.8))
                } else {
                    actions = machine.pageLoaded(request: request, page: server.page(for: request))
                }
            } else if roll < 95, !backingOff.isEmpty {
                actions = machine.retryTimerFired(backingOff.remove(at: random.next(below: backingOff.count)))
            } else {
                actions = machine.retry()
            }
            guard apply(actions, before: before, leadingBefore: leadingBefore) else { return }
            machine.checkInvariants()
            // Then the assembled list is a run of the server's list: no gap, no duplicate
            let ids = machine.items.map(\.id)
            if let first = ids.first, ids != Array(first..<(first + ids.count)) {
                Issue.record("\(context), step \(step): list has a gap or a duplicate: \(ids)")
                return
            }
            if reportsTotalCount, let first = ids.first, machine.item(at: machine.leadingPlaceholderCount)?.id != first
            {
                Issue.record("\(context), step \(step): placeholders misplace items")
                return
            }
            // And nothing past the end of the list is ever asked for
            for request in inFlight where request.direction == .append {
                // (without a count, only an empty page can tell a full last page is the last)
                let end = server.rows.count + (reportsTotalCount ? 0 : 1)
                if case .offset(let offset) = request.key, offset >= end {
                    Issue.record("\(context): \(request) past the end")
                    return
                }
            }
        }
        #expect(failures > 0, "\(context)")
        if maxSize != nil {
            // Then pages were dropped and loaded again when scrolled back to
            #expect(drops > 0 && prepends > 0, "\(context)")
        }

        // When every load succeeds and the user scrolls to the end
        var guardSteps = 0
        while machine.appendState != .endReached || !inFlight.isEmpty || !backingOff.isEmpty {
            guardSteps += 1
            guard guardSteps < 10_000 else {
                Issue.record("\(context): never reached the end")
                return
            }
            let before = Array(machine.items)
            let leadingBefore = machine.leadingPlaceholderCount
            let actions: [PagingStateMachine<Row>.Action]
            if let request = inFlight.popLast() {
                actions = machine.pageLoaded(request: request, page: server.page(for: request))
            } else if let request = backingOff.popLast() {
                actions = machine.retryTimerFired(request)
            } else if case .failed = machine.appendState {
                actions = machine.retry()
            } else if case .failed = machine.refreshState {
                actions = machine.retry()
            } else {
                actions = machine.accessed(index: max(0, machine.itemCount - 1))
            }
            guard apply(actions, before: before, leadingBefore: leadingBefore) else { return }
            machine.checkInvariants()
        }
        // Then the list ends with the server's last row
        #expect(machine.items.last?.id == server.rows.count - 1, "\(context)")
        if maxSize == nil, machine.prependState == .endReached {
            #expect(machine.items.map(\.id) == server.rows.map(\.id), "\(context)")
        }
    }
}
