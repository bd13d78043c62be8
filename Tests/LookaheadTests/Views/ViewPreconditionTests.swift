import Testing

@testable import Lookahead
@testable import LookaheadHeadless

/// Mistakes a caller can make stop the process with a message that says what
/// went wrong, as UIKit's exceptions do. Each runs in a child process.
@Suite(.timeLimit(.minutes(1)))
struct ViewPreconditionTests {
    @Test func anOutOfRangeIndexPathIsAPreconditionFailure() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let recorder = ViewEventRecorder(itemCount: 10)
                let collectionView = ViewFixtures.makeCollectionView(recorder)
                collectionView.layoutIfNeeded()
                _ = collectionView.cellForItem(at: ItemPath(item: 10, section: 0))
            }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("cellForItem(at:): index path [0, 10] is out of range: section 0 has 10 items"))
    }

    @Test func reloadingAnOutOfRangeRowIsAPreconditionFailure() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let recorder = ViewEventRecorder(itemCount: 10)
                let tableView = ViewFixtures.makeTableView(recorder)
                tableView.reloadRows(at: [ItemPath(row: 0, section: 1)])
            }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("TableView.reloadRows(at:): index path [1, 0] is out of range: there are 1 sections"))
    }

    @Test func dequeuingAnUnregisteredIdentifierIsAPreconditionFailure() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let recorder = ViewEventRecorder(itemCount: 10)
                let collectionView = CollectionView()
                collectionView.dataSource = recorder
                collectionView.layoutIfNeeded()
            }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("unable to dequeue a cell with identifier \"cell\""))
    }

    @Test func countsThatDoNotAddUpAreAPreconditionFailure() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let recorder = ViewEventRecorder(itemCount: 10)
                let tableView = ViewFixtures.makeTableView(recorder)
                tableView.layoutIfNeeded()
                recorder.counts = [12]
                tableView.insertRows(at: [ItemPath(row: 0, section: 0)])
            }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Invalid update: invalid number of rows in section 0"))
    }

    @Test func aCellThatWasNotDequeuedIsAPreconditionFailure() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let dataSource = HandMadeCellDataSource()
                let tableView = TableView()
                tableView.dataSource = dataSource
                tableView.layoutIfNeeded()
            }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("tableView(_:cellForRowAt:) must return a cell obtained from dequeueReusableCell"))
    }
}

/// Makes its cells itself instead of dequeuing them.
@MainActor
private final class HandMadeCellDataSource: TableViewDataSource {
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { 5 }

    func tableView(_ tableView: TableView, cellForRowAt indexPath: ItemPath) -> Cell {
        Cell(reuseIdentifier: "cell")
    }
}
