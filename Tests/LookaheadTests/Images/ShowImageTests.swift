import LookaheadTestSupport
import Testing

@testable import Lookahead
@testable import LookaheadImages

/// What an image view shows of its request (`UIImageView.showImage`, forwarded
/// to the portable rule): a placeholder while it loads, the image faded in,
/// the failure image for good failures, and never a key it no longer shows.
@Suite(.queuedOnTheMainActor)
@MainActor
struct ShowImageTests {
    typealias Image = DecodedImage<String>

    /// An image view, as far as the rule cares: what it shows, in order.
    @MainActor
    final class ImageView {
        var shown: [String] = []

        func show(_ image: ShownImage<String>) {
            switch image {
            case .image(let name, let fades): shown.append(fades ? "fade \(name)" : name)
            case .placeholder: shown.append("placeholder")
            case .failure: shown.append("failure")
            }
        }
    }

    let gate = LoadGate<Int, Image>()
    let fetcher: AsyncFetcher<Int, Image>
    let coordinator: PrefetchCoordinator<Int, Image>

    init() {
        let gate = gate
        fetcher = AsyncFetcher(maxConcurrentLoads: 8, retryPolicy: .never) { key in try await gate.load(key) }
        coordinator = PrefetchCoordinator(
            fetcher: fetcher,
            layoutSource: FixedLayoutSource(layout: ListLayout(width: 390, rowHeight: 100, rowCount: 100)),
            policy: .adaptive
        ) { $0.item }
    }

    static func image(_ name: String) -> Image {
        DecodedImage(image: name, pixelWidth: 1, pixelHeight: 1, bytesPerRow: 4)
    }

    func show(_ key: Int, in view: ImageView) {
        coordinator.showImage(of: key, at: ItemPath(item: key, section: 0), in: view) { view.show($0) }
    }

    @Test func aReusedViewLetsGoOfItsOldKeyAndShowsOnlyItsNewOne() async {
        // Given a view waiting on photo 1
        let view = ImageView()
        show(1, in: view)
        await gate.waitForStarts(1)

        // When it is reused for photo 2, and then both loads would finish
        show(2, in: view)
        await gate.waitForStarts(2)
        await gate.waitForCancellations(1)
        #expect(coordinator.displayRequest(of: view)?.key == 2)
        gate.succeed(2, with: Self.image("photo 2"))
        await waitUntil("photo 2 arrived") { view.shown.last == "fade photo 2" }

        // Then photo 1's load was withdrawn, the view never showed it, and
        // the request it answered is done
        #expect(gate.waiting.isEmpty)
        #expect(view.shown == ["placeholder", "placeholder", "fade photo 2"])
        #expect(coordinator.displayRequest(of: view) == nil)
    }

    @Test func aDecodedImageShowsAtOnceAndLetsGoOfTheViewsRequest() async {
        // Given photo 3 decoded already, and a view waiting on photo 4
        coordinator.fetcher.fetchAsync(3)
        await gate.waitForStarts(1)
        gate.succeed(3, with: Self.image("photo 3"))
        await coordinator.fetcher.waitUntilIdle()
        let view = ImageView()
        show(4, in: view)
        await gate.waitForStarts(2)

        // When the view is reused for photo 3
        show(3, in: view)

        // Then it shows it at once, no fade, and photo 4's load is withdrawn
        #expect(view.shown == ["placeholder", "photo 3"])
        await gate.waitForCancellations(1)
        #expect(coordinator.displayRequest(of: view) == nil)
    }

    @Test func aFailedLoadShowsTheFailureAndALeavingCellLowersItsRequest() async {
        // Given two views waiting on photos 5 and 6
        let failing = ImageView()
        let leaving = ImageView()
        show(5, in: failing)
        show(6, in: leaving)
        await gate.waitForStarts(2)

        // When photo 5 fails for good and photo 6's cell leaves the screen
        gate.fail(5, with: ImageDecodingError.noImage)
        coordinator.didEndDisplaying(leaving)

        // Then the first shows the failure; the second still waits, at .veryLow
        await waitUntil("the failure arrived") { failing.shown.last == "failure" }
        #expect(failing.shown == ["placeholder", "failure"])
        #expect(coordinator.displayRequest(of: leaving)?.request.priority == .veryLow)
        #expect(leaving.shown == ["placeholder"])
    }
}
