import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1)))
struct PagingStateMachineTests {
    typealias Machine = PagingStateMachine<Row>

    /// A machine after its initial load of `server`.
    func loadedMachine(
        _ server: FakePageServer,
        _ configuration: PagingConfiguration = PagingConfiguration(pageSize: 10)
    ) -> Machine {
        var machine = Machine(configuration: configuration)
        let request = machine.start()[0].loadedRequest!
        #expect(machine.pageLoaded(request: request, page: server.page(for: request)) == [])
        machine.checkInvariants()
        return machine
    }

    @Test func initialLoadAsksForThreePages() {
        // Given a machine with pages of 10
        var machine = Machine(configuration: PagingConfiguration(pageSize: 10))
        // When it starts
        let actions = machine.start()
        // Then it loads 30 items from the start, once
        #expect(actions == [.load(PageRequest.offset(0, limit: 30, direction: .initial))])
        #expect(machine.refreshState == .loading)
        #expect(machine.start() == [])
        // And the loaded page gives 30 items
        #expect(
            machine.pageLoaded(
                request: actions[0].loadedRequest!,
                page: FakePageServer(count: 100).page(for: actions[0].loadedRequest!)) == [])
        #expect(machine.count == 30)
        #expect(machine.refreshState == .idle)
        #expect(machine.appendState == .idle)
        #expect(machine.prependState == .endReached)
    }

    @Test func aFirstScreenIsAskedForAloneThenTheRestOfTheFirstLoadAtOnce() {
        // Given pages of 10 (a first load of 30) over 100 rows
        let server = FakePageServer(count: 100)
        var machine = Machine(configuration: PagingConfiguration(pageSize: 10))
        // When it starts with a first screen of 7 rows
        let first = machine.start(firstScreenItemCount: 7)
        // Then it asks for those 7 alone
        #expect(first == [.load(PageRequest.offset(0, limit: 7, direction: .initial))])
        // And when they land, for the other 23 of the first load, before any access
        let rest = machine.pageLoaded(request: first[0].loadedRequest!, page: server.page(for: first[0].loadedRequest!))
        #expect(rest == [.load(PageRequest.offset(7, limit: 23))])
        #expect(machine.count == 7)
        machine.checkInvariants()
        // And once those land, pages follow accesses as usual
        #expect(
            machine.pageLoaded(request: rest[0].loadedRequest!, page: server.page(for: rest[0].loadedRequest!)) == [])
        #expect(machine.count == 30)
        #expect(machine.accessed(index: 20) == [.load(.offset(30, limit: 10))])
        machine.checkInvariants()
    }

    @Test func theRestCarriesTheNextPageWhenTheWholeFirstLoadWouldHaveAskedForIt() {
        // Given a first load of one page of 15, the next asked for within 15 of the end
        let server = FakePageServer(count: 100)
        var machine = Machine(configuration: PagingConfiguration(pageSize: 15, initialLoadSize: 15))
        let first = machine.start(firstScreenItemCount: 7)
        #expect(first == [.load(PageRequest.offset(0, limit: 7, direction: .initial))])
        // When the screen lands (its last row 6 is within 15 of row 14, where the whole load would end)
        let rest = machine.pageLoaded(request: first[0].loadedRequest!, page: server.page(for: first[0].loadedRequest!))
        // Then the rest (8) and the page the whole load would have asked for (15) come in one request
        #expect(rest == [.load(PageRequest.offset(7, limit: 23))])
        #expect(
            machine.pageLoaded(request: rest[0].loadedRequest!, page: server.page(for: rest[0].loadedRequest!)) == [])
        #expect(machine.count == 30)
        machine.checkInvariants()
    }

    @Test func aFirstScreenAsLargeAsTheFirstLoadOrAShortListAsksForNothingMore() {
        // A screen of 40 rows against a first load of 30: one request of 30, nothing after it
        var large = Machine(configuration: PagingConfiguration(pageSize: 10))
        let whole = large.start(firstScreenItemCount: 40)
        #expect(whole == [.load(PageRequest.offset(0, limit: 30, direction: .initial))])
        #expect(
            large.pageLoaded(
                request: whole[0].loadedRequest!, page: FakePageServer(count: 100).page(for: whole[0].loadedRequest!))
                == [])
        // A list of 5 rows under a screen of 7: it ends there
        let short = FakePageServer(count: 5)
        var machine = Machine(configuration: PagingConfiguration(pageSize: 10))
        let first = machine.start(firstScreenItemCount: 7)
        #expect(
            machine.pageLoaded(request: first[0].loadedRequest!, page: short.page(for: first[0].loadedRequest!)) == [])
        #expect(machine.count == 5)
        #expect(machine.appendState == .endReached)
        machine.checkInvariants()
    }

    @Test func aRefreshAsksForTheFirstScreenAloneAgain() {
        // Given a machine started with a first screen of 7, loaded
        let server = FakePageServer(count: 100)
        var machine = Machine(configuration: PagingConfiguration(pageSize: 10))
        let first = machine.start(firstScreenItemCount: 7)
        let rest = machine.pageLoaded(request: first[0].loadedRequest!, page: server.page(for: first[0].loadedRequest!))
        _ = machine.pageLoaded(request: rest[0].loadedRequest!, page: server.page(for: rest[0].loadedRequest!))
        // When it refreshes
        let again = machine.refresh()
        // Then the new first load is the screen again, and the rest follows it
        #expect(again.compactMap(\.loadedRequest).map(\.limit) == [7])
        let followUp = machine.pageLoaded(
            request: again.last!.loadedRequest!, page: server.page(for: again.last!.loadedRequest!))
        #expect(followUp.compactMap(\.loadedRequest).map(\.limit) == [23])
        machine.checkInvariants()
    }

    @Test func accessNearTheEndAppendsExactlyOnce() {
        // Given 30 loaded items and a prefetch distance of 10
        let server = FakePageServer(count: 100)
        var machine = loadedMachine(server)
        // When the user reaches index 19, then 20
        #expect(machine.accessed(index: 19) == [])
        let actions = machine.accessed(index: 20)
        // Then the next page is asked for once
        #expect(actions == [.load(.offset(30, limit: 10))])
        #expect(machine.appendState == .loading)
        // And further accesses while it loads ask for nothing
        for index in Array(21..<30).reversed() + Array(21..<30) {
            #expect(machine.accessed(index: index) == [])
        }
        // When the page arrives with the user at 29, 10 items from the new end
        let request = actions[0].loadedRequest!
        #expect(machine.pageLoaded(request: request, page: server.page(for: request)) == [])
        // Then the next access within the distance asks for the following page
        #expect(machine.accessed(index: 30) == [.load(.offset(40, limit: 10))])
        machine.checkInvariants()
    }

    @Test func endOfDataStopsOffsetPaging() {
        // Given a list of 35 items
        let server = FakePageServer(count: 35)
        var machine = loadedMachine(server)
        // When the user scrolls to the end
        let request = machine.accessed(index: 29)[0].loadedRequest!
        #expect(machine.pageLoaded(request: request, page: server.page(for: request)) == [])
        // Then the short page ends the list and nothing more is asked for
        #expect(machine.count == 35)
        #expect(machine.appendState == .endReached)
        for index in 0..<35 { #expect(machine.accessed(index: index) == []) }
    }

    @Test func endOfDataStopsOffsetPagingAtTheTotalCount() {
        // Given a list of exactly 40 items whose server reports the count
        let server = FakePageServer(count: 40, reportsTotalCount: true)
        var machine = loadedMachine(server)
        let request = machine.accessed(index: 29)[0].loadedRequest!
        // When the full last page arrives
        #expect(machine.pageLoaded(request: request, page: server.page(for: request)) == [])
        // Then the count ends the list without asking for an empty page
        #expect(machine.appendState == .endReached)
        #expect(machine.accessed(index: 39) == [])
    }

    @Test func endOfDataStopsCursorPaging() {
        // Given a cursor source of 45 items
        let server = FakePageServer(count: 45)
        var machine = loadedMachine(server, PagingConfiguration(mode: .cursor, pageSize: 10))
        #expect(machine.prependState == .endReached)
        // When the user scrolls to the end
        var requests: [PageRequest] = []
        for index in 0..<45 {
            for action in machine.accessed(index: index) {
                let request = action.loadedRequest!
                requests.append(request)
                _ = machine.pageLoaded(request: request, page: server.page(for: request))
            }
        }
        // Then it followed the cursors and stopped when the next cursor was nil
        #expect(requests == [.cursor("s:30", limit: 10), .cursor("s:40", limit: 10)])
        #expect(machine.items.map(\.id) == Array(0..<45))
        #expect(machine.appendState == .endReached)
    }

    @Test func itemsThatReappearAreNotAddedTwice() {
        // Given 30 loaded items
        var server = FakePageServer(count: 100)
        var machine = loadedMachine(server)
        // When two rows are inserted at the top before the next page is asked for
        server.rows.insert(contentsOf: [Row(id: 1000), Row(id: 1001)], at: 0)
        let request = machine.accessed(index: 25)[0].loadedRequest!
        _ = machine.pageLoaded(request: request, page: server.page(for: request))
        // Then rows 28 and 29, shifted into the new page, are not added again
        #expect(machine.items.map(\.id) == Array(0..<38))
        machine.checkInvariants()
    }

    @Test func placeholdersOnlyWhenTheTotalCountIsKnown() {
        // Given a server that reports its count and one that does not
        let counted = loadedMachine(FakePageServer(count: 100, reportsTotalCount: true))
        let uncounted = loadedMachine(FakePageServer(count: 100))
        // Then the first has 70 placeholders after its 30 items
        #expect(counted.itemCount == 100)
        #expect(counted.placeholderCount == 70)
        #expect(counted.item(at: 29)?.id == 29)
        #expect(counted.item(at: 30) == nil)
        #expect(counted.item(at: 99) == nil)
        // And the second has none
        #expect(uncounted.itemCount == 30)
        #expect(uncounted.placeholderCount == 0)
        #expect(uncounted.item(at: 30) == nil)
    }

    @Test func failedPageIsRetriedThenSurfacedThenRetriedByTheUser() {
        // Given 30 loaded items and an append in flight
        let server = FakePageServer(count: 100)
        var machine = loadedMachine(server)
        let request = machine.accessed(index: 25)[0].loadedRequest!
        // When it fails transiently, it backs off 200 ms then 400 ms
        #expect(
            machine.pageFailed(request: request, error: "timeout", isTransient: true) == [
                .retry(request, after: .milliseconds(200))
            ])
        #expect(machine.appendState == .loading)
        #expect(machine.accessed(index: 29) == [])
        #expect(machine.retryTimerFired(request) == [.load(request)])
        #expect(
            machine.pageFailed(request: request, error: "timeout", isTransient: true) == [
                .retry(request, after: .milliseconds(400))
            ])
        #expect(machine.retryTimerFired(request) == [.load(request)])
        // When the last attempt fails, the failure is surfaced and nothing more loads
        #expect(machine.pageFailed(request: request, error: "timeout", isTransient: true) == [])
        #expect(machine.appendState == .failed("timeout"))
        #expect(machine.accessed(index: 29) == [])
        // When the user retries, the same page loads again (it is never skipped)
        #expect(machine.retry() == [.load(request)])
        #expect(machine.appendState == .loading)
        _ = machine.pageLoaded(request: request, page: server.page(for: request))
        #expect(machine.items.map(\.id) == Array(0..<40))
        machine.checkInvariants()
    }

    @Test func permanentFailureIsSurfacedAtOnce() {
        var machine = Machine(configuration: PagingConfiguration(pageSize: 10))
        let request = machine.start()[0].loadedRequest!
        #expect(machine.pageFailed(request: request, error: "404", isTransient: false) == [])
        #expect(machine.refreshState == .failed("404"))
        #expect(machine.retry() == [.load(request)])
    }

    @Test func maxSizeDropsFarPagesAndReloadsThemWhenScrolledBack() {
        // Given a 200-row list with a count, pages of 10, distance 10, at most 60 items kept
        let server = FakePageServer(count: 200, reportsTotalCount: true)
        let configuration = PagingConfiguration(pageSize: 10, maxSize: 60)
        var machine = loadedMachine(server, configuration)
        var dropped = 0
        func scroll(through indices: some Sequence<Int>) {
            for index in indices {
                var pending = machine.accessed(index: index)
                while let action = pending.popLast() {
                    switch action {
                    case .load(let request):
                        pending += machine.pageLoaded(request: request, page: server.page(for: request))
                    case .dropped(let range):
                        dropped += range.count
                        // Then nothing within pageSize + 2 × prefetchDistance of the access is dropped
                        #expect(range.upperBound <= index - 30 || range.lowerBound > index + 30)
                    default:
                        Issue.record("unexpected \(action)")
                    }
                }
                machine.checkInvariants()
                // And the accessed row and its neighbours are always loaded
                #expect(machine.item(at: index)?.id == index)
                #expect(machine.count <= 60 + 30)
            }
        }
        // When the user scrolls to the bottom
        scroll(through: 0..<200)
        // Then early pages were dropped and became placeholders
        #expect(dropped > 0)
        #expect(machine.item(at: 0) == nil)
        #expect(machine.itemCount == 200)
        #expect(machine.appendState == .endReached)
        // When the user scrolls back to the top, the dropped pages load again
        scroll(through: (0..<200).reversed())
        #expect(machine.item(at: 0)?.id == 0)
        #expect(machine.prependState == .endReached)
        #expect(machine.item(at: 199) == nil)
    }

    @Test func adaptiveTriggerLoadsEarlierWhenScrollingFast() {
        // Given 30 loaded items
        let server = FakePageServer(count: 100)
        var slow = loadedMachine(server)
        var fast = loadedMachine(server)
        // When the user is 20 items from the end at 10 items/s, with pages taking 1 s
        let latency = Duration.seconds(1)
        // Then nothing loads yet (2 s away)
        #expect(slow.accessed(index: 9, velocity: 10, observedPageLatency: latency) == [])
        // But at 100 items/s (0.2 s away) the next page loads
        #expect(fast.accessed(index: 9, velocity: 100, observedPageLatency: latency) == [.load(.offset(30, limit: 10))])
        // And scrolling up fast does not load the end
        #expect(slow.accessed(index: 9, velocity: -100, observedPageLatency: latency) == [])
    }

    @Test func refreshReplacesTheItemsAndIgnoresStaleResults() {
        let server = FakePageServer(count: 100)
        var machine = loadedMachine(server)
        let append = machine.accessed(index: 25)[0].loadedRequest!
        let actions = machine.refresh()
        #expect(actions.first == .cancel(append))
        let reload = actions.last!.loadedRequest!
        #expect(reload.direction == .initial && reload.generation == 1)
        #expect(machine.pageLoaded(request: append, page: server.page(for: append)) == [])
        #expect(machine.count == 30)
        _ = machine.pageLoaded(request: reload, page: server.page(for: reload))
        #expect(machine.items.map(\.id) == Array(0..<30))
        machine.checkInvariants()
    }
}
