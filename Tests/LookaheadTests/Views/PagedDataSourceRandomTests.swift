import LookaheadTestSupport
import Testing

@testable import Lookahead
@testable import LookaheadHeadless

/// A collection view over a paged source, scrolled at random (drags, flings,
/// reversals, jumps) while loads land in a random order, checked against a
/// reference model of the server's list after every frame.
@MainActor
@Suite(.queuedOnTheMainActor)
struct PagedDataSourceRandomTests {
    static let serverCount = 600

    @Test(arguments: [UInt64(0x9A6E_0001), 0x9A6E_0002, 0x9A6E_0003])
    func placeholdersWithMaxSize(seed: UInt64) async {
        let configuration = PagingConfiguration(pageSize: 20, prefetchDistance: 30, maxSize: 200)
        await run(seed: seed, configuration: configuration, reportsTotalCount: true)
    }

    @Test(arguments: [UInt64(0x9A6E_0011), 0x9A6E_0012, 0x9A6E_0013])
    func appendsWithoutATotalCount(seed: UInt64) async {
        let configuration = PagingConfiguration(pageSize: 20, prefetchDistance: 30)
        await run(seed: seed, configuration: configuration, reportsTotalCount: false)
    }

    func run(seed: UInt64, configuration: PagingConfiguration, reportsTotalCount: Bool) async {
        let server = FakePageServer(count: Self.serverCount, reportsTotalCount: reportsTotalCount)
        let gate = LoadGate<PageRequest, Page<Row>>()
        let pager = Pager<Row>(configuration: configuration, clock: ManualClock()) { try await gate.load($0) }
        let dataSource = PagedDataSource(pager: pager)
        dataSource.appliesChangesAutomatically = false
        let collectionView = CollectionView()
        dataSource.attach(to: collectionView)
        var random = SeededRandom(seed: seed)
        let context = "seed \(String(seed, radix: 16))"

        pager.start()
        await gate.waitForStarts(1)
        await resolveAll(gate, server, pager, dataSource, context)
        collectionView.layoutIfNeeded()

        var time = Duration.zero
        var velocity = 0.0
        var framesLeft = 0
        for frame in 0..<400 {
            let here = "\(context), frame \(frame)"
            // A new gesture: a drag, a fling (either way), or a jump.
            if framesLeft == 0 {
                switch random.next(below: 10) {
                case 0...4:
                    velocity = Double(random.next(below: 400) - 200)
                    framesLeft = 1 + random.next(below: 8)
                case 5...8:
                    velocity = Double(random.next(below: 4_000) - 2_000)
                    framesLeft = 10 + random.next(below: 30)
                default:
                    velocity = 0
                    framesLeft = 1
                    let height = collectionView.contentSize.height
                    collectionView.contentOffset = Point(x: 0, y: Double(random.next(below: max(1, Int(height)))))
                }
            }
            framesLeft -= 1
            velocity *= 0.95
            time += .milliseconds(16)
            let offset = collectionView.contentOffset.y + velocity
            let before = pager.snapshot
            collectionView.step(to: Point(x: 0, y: offset), at: time)
            let visiblePositions = Set(
                collectionView.indexPathsForVisibleItems.map { $0.item + dataSource.displayed.origin })

            // Loads land in a random order; some stay in flight across frames.
            for request in gate.waiting where random.chance(0.4) {
                await land(request, gate, server, pager, here)
            }
            dataSource.applyChanges()
            check(dataSource, collectionView, gate, before: before, visiblePositions: visiblePositions, here)
        }

        // Finally, scroll to the very end, landing everything on the way.
        for attempt in 0..<200 {
            time += .milliseconds(16)
            collectionView.step(to: Point(x: 0, y: collectionView.contentSize.height), at: time)
            await resolveAll(gate, server, pager, dataSource, "\(context), end \(attempt)")
            if dataSource.displayed.appendState == .endReached,
                collectionView.indexPathsForVisibleItems.last?.item == dataSource.displayed.count - 1
            {
                break
            }
        }
        collectionView.layoutIfNeeded()
        #expect(dataSource.displayed.appendState == .endReached, "\(context)")
        #expect(dataSource.displayed.items.last?.id == Self.serverCount - 1, "\(context)")
        checkVisibleCells(collectionView.visibleItemCells, in: dataSource.displayed, "\(context), at the end")
        #expect(
            collectionView.visibleItemCells.allSatisfy { ($0.cell as? PagedCell<Row>)?.item != nil },
            "\(context): placeholders at the end")
    }

    /// Finishes `request` and waits until the pager took its page in.
    func land(
        _ request: PageRequest, _ gate: LoadGate<PageRequest, Page<Row>>, _ server: FakePageServer,
        _ pager: Pager<Row>, _ context: String
    ) async {
        let page = server.page(for: request)
        // The pager may have cancelled it since it was seen waiting.
        guard gate.succeedIfWaiting(request, with: page) else { return }
        // It may also be cancelled after it succeeded, before the pager took it
        // in: then it ends without landing.
        if let first = page.items.first {
            await waitUntil("\(request) did not land, \(context)") {
                pager.items.contains { $0.id == first.id } || !pager.hasTask(for: request)
            }
        } else {
            await waitUntil("\(request) did not end the list, \(context)") {
                pager.appendState == .endReached || !pager.hasTask(for: request)
            }
        }
    }

    func resolveAll(
        _ gate: LoadGate<PageRequest, Page<Row>>, _ server: FakePageServer, _ pager: Pager<Row>,
        _ dataSource: PagedDataSource<Row>, _ context: String
    ) async {
        for _ in 0..<100 {
            // A load just asked for may not have reached the gate yet.
            await waitUntil("a load never reached the gate, \(context)") { pager.isSettled || !gate.waiting.isEmpty }
            guard let request = gate.waiting.first else { break }
            await land(request, gate, server, pager, context)
        }
        dataSource.applyChanges()
    }

    func check(
        _ dataSource: PagedDataSource<Row>, _ collectionView: CollectionView, _ gate: LoadGate<PageRequest, Page<Row>>,
        before: PagedListSnapshot<Row>, visiblePositions: Set<Int>, _ context: String
    ) {
        let displayed = dataSource.displayed
        #expect(collectionView.numberOfItems(inSection: 0) == displayed.count, "\(context)")
        // The loaded items are the server's list from their first position on, without gaps or duplicates.
        let ids = displayed.items.map(\.id)
        let first = displayed.origin + displayed.leadingPlaceholderCount
        #expect(ids == Array(first..<(first + ids.count)), "\(context): loaded \(ids.first ?? -1)…\(ids.last ?? -1)")
        if dataSource.pager.snapshot.leadingPlaceholderCount == 0, displayed.origin == 0 {
            #expect(first == 0, "\(context): not a prefix")
        }
        checkVisibleCells(collectionView.visibleItemCells, in: displayed, context)
        // No page is asked for twice while in flight, and nothing past the end.
        let waiting = gate.waiting
        #expect(Set(waiting).count == waiting.count, "\(context): duplicate requests in flight \(waiting)")
        let offsets = gate.started.compactMap { request -> Int? in
            if case .offset(let offset) = request.key { return offset }
            return nil
        }
        #expect(offsets.allSatisfy { $0 <= Self.serverCount }, "\(context): a request past the end")
        #expect(offsets.filter { $0 == Self.serverCount }.count <= 1, "\(context): the end asked for twice")
        // maxSize never drops what was on screen.
        let after = dataSource.pager.snapshot
        let positionsBefore = Set(before.items.map(\.id))
        let positionsAfter = Set(after.items.map(\.id))
        let dropped = positionsBefore.subtracting(positionsAfter)
        #expect(
            dropped.isDisjoint(with: visiblePositions),
            "\(context): dropped visible \(dropped.intersection(visiblePositions).sorted())")
    }
}
