// Observes a UIScrollView's scrolling without taking over the app's
// delegate: the proxy becomes the delegate, reports to the coordinator and
// forwards every call to the app's own delegate. Compiled only where UIKit
// exists.

#if canImport(UIKit) && !os(watchOS)
import Lookahead
import UIKit

/// The scroll view's delegate while a coordinator is attached: reports
/// offsets, the end of drags, animated scrolls to the top and cells
/// shown and leaving the screen, and forwards
/// everything to the delegate the app had set (`forwardee`), which keeps
/// receiving every call it implements.
@MainActor
final class ScrollViewDelegateProxy: NSObject, UICollectionViewDelegate, UITableViewDelegate {
    weak var coordinator: (any UIKitForwarding)?
    /// The view whose delegate this proxy is, which keeps it alive (an
    /// associated object): UIKit holds delegates weakly.
    weak var scrollView: UIScrollView?
    /// The app's own delegate, weakly. Behind a lock because NSObject
    /// declares `responds(to:)` and `forwardingTarget(for:)` nonisolated.
    private let forwardeeBox: LockedValue<WeakObject>
    /// The time since attaching, on the injected clock.
    private let now: @MainActor () -> Duration

    private struct WeakObject {
        weak var object: (any NSObjectProtocol)?
    }

    init(
        coordinator: any UIKitForwarding, forwardee: (any UIScrollViewDelegate)?,
        now: @escaping @MainActor () -> Duration
    ) {
        self.coordinator = coordinator
        self.forwardeeBox = LockedValue(WeakObject(object: forwardee))
        self.now = now
        super.init()
    }

    /// The app's own delegate, if it is still alive.
    var forwardee: (any UIScrollViewDelegate)? {
        forwardeeBox.withLock { $0.object } as? any UIScrollViewDelegate
    }

    /// Becomes `scrollView`'s delegate, kept alive by the view itself as
    /// long as it is attached.
    func attach(to scrollView: UIScrollView) {
        self.scrollView = scrollView
        objc_setAssociatedObject(scrollView, Self.associationKey, self, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        scrollView.delegate = self
    }

    /// Gives the view its app's delegate back, if the proxy is still its
    /// delegate (an app that replaced it since keeps its own), and lets
    /// the view release the proxy.
    func detach() {
        guard let scrollView else { return }
        if scrollView.delegate === self { scrollView.delegate = forwardee }
        objc_setAssociatedObject(scrollView, Self.associationKey, nil, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        self.scrollView = nil
    }

    /// The key the view keeps its proxy under: an address of its own.
    private static let associationKey = UnsafeRawPointer(
        UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))

    /// The coordinator, or, once it has gone away, `nil` after handing the
    /// view back to the app's delegate: the proxy forwards this call and
    /// steps out of the way.
    private var attachedCoordinator: (any UIKitForwarding)? {
        if let coordinator { return coordinator }
        detach()
        return nil
    }

    // The app's delegate answers whatever the proxy does not implement.
    nonisolated override func responds(to aSelector: Selector!) -> Bool {
        if super.responds(to: aSelector) { return true }
        let forwardee = forwardeeBox.withLock { $0.object }
        return forwardee?.responds(to: aSelector) ?? false
    }

    nonisolated override func forwardingTarget(for aSelector: Selector!) -> Any? {
        let forwardee = forwardeeBox.withLock { $0.object }
        if let forwardee, forwardee.responds(to: aSelector) { return forwardee }
        return super.forwardingTarget(for: aSelector)
    }

    func scrollViewDidScroll(_ scrollView: UIScrollView) {
        attachedCoordinator?.scrollViewDidScroll(
            contentOffset: Point(scrollView.contentOffset), viewportSize: Size(scrollView.bounds.size), at: now())
        forwardee?.scrollViewDidScroll?(scrollView)
    }

    func scrollViewWillBeginDragging(_ scrollView: UIScrollView) {
        endMotion { $0.scrollViewWillBeginDragging?(scrollView) }
    }

    func scrollViewWillEndDragging(
        _ scrollView: UIScrollView, withVelocity velocity: CGPoint,
        targetContentOffset: UnsafeMutablePointer<CGPoint>
    ) {
        // The app first: it may move the target (paging, snapping).
        forwardee?.scrollViewWillEndDragging?(
            scrollView, withVelocity: velocity, targetContentOffset: targetContentOffset)
        // UIKit's velocity is in points per millisecond.
        coordinator?.scrollViewWillEndDragging(
            velocity: Double(velocity.y) * 1_000, targetContentOffset: Point(targetContentOffset.pointee),
            contentOffset: Point(scrollView.contentOffset), viewportSize: Size(scrollView.bounds.size), at: now())
    }

    func scrollViewDidEndDecelerating(_ scrollView: UIScrollView) {
        endMotion { $0.scrollViewDidEndDecelerating?(scrollView) }
    }

    /// An animated scroll the app starts (see
    /// `PrefetchCoordinator.scrollViewWillAnimateScroll(_:to:)`).
    func scrollViewWillAnimateScroll(_ scrollView: UIScrollView, to targetContentOffset: CGPoint) {
        coordinator?.scrollViewWillAnimateScroll(
            to: Point(targetContentOffset), contentOffset: Point(scrollView.contentOffset),
            viewportSize: Size(scrollView.bounds.size), at: now())
    }

    // A tap on the status bar scrolls to the top, with an animation, if
    // the app's delegate lets it (UIKit's default: it does).
    func scrollViewShouldScrollToTop(_ scrollView: UIScrollView) -> Bool {
        let scrolls = forwardee?.scrollViewShouldScrollToTop?(scrollView) ?? true
        if scrolls {
            scrollViewWillAnimateScroll(
                scrollView, to: CGPoint(x: scrollView.contentOffset.x, y: -scrollView.adjustedContentInset.top))
        }
        return scrolls
    }

    func scrollViewDidScrollToTop(_ scrollView: UIScrollView) {
        endMotion { $0.scrollViewDidScrollToTop?(scrollView) }
    }

    func scrollViewDidEndScrollingAnimation(_ scrollView: UIScrollView) {
        endMotion { $0.scrollViewDidEndScrollingAnimation?(scrollView) }
    }

    /// A motion ended (a drag began, a deceleration or an animated scroll
    /// ended): the coordinator drops its announced target, then the app's
    /// delegate hears the call (`forward`).
    private func endMotion(_ forward: (any UIScrollViewDelegate) -> Void) {
        coordinator?.scrollViewDidEndFling()
        if let forwardee { forward(forwardee) }
    }

    // A cell shown, perhaps again without a new `cellForItemAt` (UIKit
    // keeps recently used cells ready): its request is ranked up again.
    func collectionView(
        _ collectionView: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt indexPath: IndexPath
    ) {
        coordinator?.willDisplay(cell, at: ItemPath(indexPath))
        (forwardee as? any UICollectionViewDelegate)?.collectionView?(
            collectionView, willDisplay: cell, forItemAt: indexPath)
    }

    func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {
        coordinator?.willDisplay(cell, at: ItemPath(indexPath))
        (forwardee as? any UITableViewDelegate)?.tableView?(tableView, willDisplay: cell, forRowAt: indexPath)
    }

    func collectionView(
        _ collectionView: UICollectionView, didEndDisplaying cell: UICollectionViewCell,
        forItemAt indexPath: IndexPath
    ) {
        coordinator?.didEndDisplaying(cell)
        (forwardee as? any UICollectionViewDelegate)?.collectionView?(
            collectionView, didEndDisplaying: cell, forItemAt: indexPath)
    }

    func tableView(_ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath) {
        coordinator?.didEndDisplaying(cell)
        (forwardee as? any UITableViewDelegate)?.tableView?(tableView, didEndDisplaying: cell, forRowAt: indexPath)
    }
}
#endif
