import Testing

@testable import Lookahead
@testable import LookaheadHeadless

/// A loader over a ``FakePageServer`` that answers at once and records every
/// request, and whether one was asked for while the same was in flight.
final class RecordingPageLoader: Sendable {
    private struct State {
        var requests: [PageRequest] = []
        var inFlight: Set<PageRequest> = []
        var duplicatesInFlight: [PageRequest] = []
    }

    let server: FakePageServer
    private let state = LockedValue(State())

    init(server: FakePageServer) {
        self.server = server
    }

    /// Every request, in the order asked.
    var requests: [PageRequest] { state.withLock { $0.requests } }
    /// Requests asked for while an identical one was still in flight.
    var duplicatesInFlight: [PageRequest] { state.withLock { $0.duplicatesInFlight } }

    func load(_ request: PageRequest) async throws -> Page<Row> {
        state.withLock { state in
            state.requests.append(request)
            if !state.inFlight.insert(request).inserted { state.duplicatesInFlight.append(request) }
        }
        defer { state.withLock { _ = $0.inFlight.remove(request) } }
        return server.page(for: request)
    }
}

/// Polls `condition` (``yieldUntil(isolation:_:)``) until it holds, and
/// records a failure with `message` if the test's time limit ended the wait
/// first (a suite using it has ``Testing/Trait/queuedOnTheMainActor``).
///
/// No wall-clock ceiling of its own: the main actor is shared with every
/// other test of the run, and how long a delivery waits for it depends on
/// them, not on the code under test.
@MainActor
func waitUntil(
    _ message: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () -> Bool
) async {
    await yieldUntil(condition)
    #expect(condition(), "\(message())", sourceLocation: sourceLocation)
}

extension Pager {
    /// Whether no page is loading or backing off.
    var isSettled: Bool {
        let snapshot = snapshot
        return snapshot.appendState != .loading && snapshot.prependState != .loading
            && snapshot.refreshState != .loading
    }
}

@MainActor
extension PagedDataSource {
    /// Waits until the pager has nothing loading, then updates the view.
    func settle(_ message: @autoclosure () -> String = "") async {
        await waitUntil("the pager did not settle \(message())") { pager.isSettled }
        applyChanges()
    }
}

/// What the visible cells of a view show, checked against their rows.
@MainActor
func checkVisibleCells(
    _ cells: [(row: Int, cell: Cell)], in snapshot: PagedListSnapshot<Row>, _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    for (row, cell) in cells {
        guard let cell = cell as? PagedCell<Row> else {
            Issue.record("row \(row) has a \(type(of: cell)), \(context)", sourceLocation: sourceLocation)
            continue
        }
        switch snapshot.row(at: row) {
        case .item(let id):
            // Ids are server positions, so a row shows exactly the item of its position.
            #expect(id == snapshot.origin + row, "row \(row), \(context)", sourceLocation: sourceLocation)
            #expect(cell.item?.id == id, "row \(row) shows \(cell.content), \(context)", sourceLocation: sourceLocation)
            #expect(
                cell.representedIdentifier == AnyHashable(id), "row \(row), \(context)", sourceLocation: sourceLocation)
        case .placeholder:
            #expect(cell.isPlaceholder, "row \(row) shows \(cell.content), \(context)", sourceLocation: sourceLocation)
        case .failed(let message):
            #expect(
                cell.failure == message, "row \(row) shows \(cell.content), \(context)", sourceLocation: sourceLocation)
        }
    }
}

extension TableView {
    var visibleRowCells: [(row: Int, cell: Cell)] {
        indexPathsForVisibleRows.compactMap { path in cellForRow(at: path).map { (path.item, $0) } }
    }
}

extension CollectionView {
    var visibleItemCells: [(row: Int, cell: Cell)] {
        indexPathsForVisibleItems.compactMap { path in cellForItem(at: path).map { (path.item, $0) } }
    }
}
