@testable import Lookahead
@testable import LookaheadHeadless

/// A headless collection view whose scrolling is reported to a
/// ``PrefetchCoordinator``, as `LookaheadUIKit` reports a `UICollectionView`'s:
/// the view's own prefetching is off (no prefetch data source), the
/// coordinator decides.
@MainActor
final class CoordinatorFixture {
    let recorder: ViewEventRecorder
    let view: CollectionView
    let gate = LoadGate<Int, String>()
    let fetcher: AsyncFetcher<Int, String>
    let coordinator: PrefetchCoordinator<Int, String>
    /// The key of each flat item; the coordinator reads it on the main actor.
    var keys: [Int] {
        get { list.keys }
        set { list.keys = newValue }
    }
    private let list: KeyList
    private(set) var time = Duration.zero
    static let frameTime = Duration.nanoseconds(16_666_667)

    init(itemCount: Int = 2_000, policy: PrefetchPolicy = .adaptive, maxConcurrentLoads: Int = 10_000) {
        recorder = ViewEventRecorder(itemCount: itemCount)
        view = CollectionView(grid: .photoGrid)
        view.register(Cell.self, forCellWithReuseIdentifier: ViewEventRecorder.reuseIdentifier)
        view.dataSource = recorder
        let gate = gate
        fetcher = AsyncFetcher(maxConcurrentLoads: maxConcurrentLoads) { key in try await gate.load(key) }
        let list = KeyList(keys: Array(0..<itemCount))
        self.list = list
        coordinator = PrefetchCoordinator(fetcher: fetcher, layoutSource: view, policy: policy) { path in
            path.section == 0 && list.keys.indices.contains(path.item) ? list.keys[path.item] : nil
        }
        view.layoutIfNeeded()
    }

    /// The cell that shows `path` in the tests that ask for display requests themselves.
    func cell(at path: ItemPath) -> TestCell {
        if let cell = cells[path] { return cell }
        let cell = TestCell()
        cells[path] = cell
        return cell
    }
    private var cells: [ItemPath: TestCell] = [:]

    /// Moves the view to `y` one frame later and reports it.
    func scroll(to y: Double, after elapsed: Duration = frameTime) {
        time += elapsed
        view.step(to: Point(x: 0, y: y), at: time)
        coordinator.scrollViewDidScroll(contentOffset: view.contentOffset, viewportSize: view.bounds.size, at: time)
    }

    /// Ends a drag at `y` with `velocity`, announcing the target.
    func endDragging(at y: Double, velocity: Double, target: Double) {
        time += Self.frameTime
        view.step(to: Point(x: 0, y: y), at: time)
        coordinator.scrollViewWillEndDragging(
            velocity: velocity, targetContentOffset: Point(x: 0, y: target), contentOffset: view.contentOffset,
            viewportSize: view.bounds.size, at: time)
    }

    /// Announces an animated scroll to `target` from where the view is, one frame later.
    func animateScroll(to target: Double) {
        time += Self.frameTime
        coordinator.scrollViewWillAnimateScroll(
            to: Point(x: 0, y: target), contentOffset: view.contentOffset, viewportSize: view.bounds.size, at: time)
    }

    /// Keys the coordinator holds prefetched.
    var prefetchedKeys: Set<Int> { Set(coordinator.prefetchedKeys.values) }
}

/// The fixture's keys, shared with the coordinator's lookup.
@MainActor
final class KeyList {
    var keys: [Int]

    init(keys: [Int]) {
        self.keys = keys
    }
}

/// What asks for a display request in a test: a cell (UIKit's are objects,
/// and a request belongs to its cell).
final class TestCell {}
