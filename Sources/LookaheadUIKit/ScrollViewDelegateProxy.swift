// Observes a UIScrollView's scrolling without taking over the app's
// delegate: the proxy becomes the delegate, reports to the coordinator and
// forwards every call to the app's own delegate. One proxy per view, its
// bookkeeping the portable DelegateAttachment's. Compiled only where UIKit
// exists.

#if canImport(UIKit) && !os(watchOS)
import Lookahead
import UIKit

/// The scroll view's delegate while a coordinator is attached: reports
/// offsets, the end of drags, animated scrolls to the top and cells shown
/// and leaving the screen, and forwards everything to the delegate the app
/// had set, which keeps receiving every call it implements.
@MainActor
final class ScrollViewDelegateProxy: NSObject, UICollectionViewDelegate, UITableViewDelegate, DelegateProxying {
    let attachment = DelegateAttachment()
    /// The time since the attached coordinator attached, on its clock.
    var now: @MainActor () -> Duration = { .zero }

    /// The coordinator, if `scrollView` is the attached view and the
    /// coordinator is still alive (gone, the view gets its app's delegate back).
    private func coordinator(of scrollView: UIScrollView) -> (any UIKitForwarding)? {
        guard attachment.isAttached(to: scrollView), !attachment.isCycling else { return nil }
        return attachment.attachedCoordinator as? any UIKitForwarding
    }

    /// The app's delegate, as `Delegate`, for one forwarded call.
    private func forward<Delegate>(as _: Delegate.Type, _ call: (Delegate) -> Void) {
        _ = attachment.forward { ($0 as? Delegate).map(call) }
    }

    // The app's delegate answers whatever the proxy does not implement.
    nonisolated override func responds(to aSelector: Selector!) -> Bool {
        if super.responds(to: aSelector) { return true }
        return attachment.ask { ($0 as? any NSObjectProtocol)?.responds(to: aSelector) ?? false } ?? false
    }

    nonisolated override func forwardingTarget(for aSelector: Selector!) -> Any? {
        let target = attachment.ask { object -> AnyObject? in
            (object as? any NSObjectProtocol)?.responds(to: aSelector) == true ? object : nil
        }
        return target ?? nil
    }

    func scrollViewDidScroll(_ scrollView: UIScrollView) {
        coordinator(of: scrollView)?.scrollViewDidScroll(
            contentOffset: Point(scrollView.contentOffset), viewportSize: Size(scrollView.bounds.size), at: now())
        forward(as: (any UIScrollViewDelegate).self) { $0.scrollViewDidScroll?(scrollView) }
    }

    func scrollViewWillBeginDragging(_ scrollView: UIScrollView) {
        endMotion(of: scrollView)
        forward(as: (any UIScrollViewDelegate).self) { $0.scrollViewWillBeginDragging?(scrollView) }
    }

    func scrollViewWillEndDragging(
        _ scrollView: UIScrollView, withVelocity velocity: CGPoint,
        targetContentOffset: UnsafeMutablePointer<CGPoint>
    ) {
        // The app first: it may move the target (paging, snapping).
        forward(as: (any UIScrollViewDelegate).self) {
            $0.scrollViewWillEndDragging?(scrollView, withVelocity: velocity, targetContentOffset: targetContentOffset)
        }
        // UIKit's velocity is in points per millisecond, along the view's axis.
        guard let coordinator = coordinator(of: scrollView) else { return }
        let speed = coordinator.scrollAxis == .horizontal ? velocity.x : velocity.y
        coordinator.scrollViewWillEndDragging(
            velocity: Double(speed) * 1_000, targetContentOffset: Point(targetContentOffset.pointee),
            contentOffset: Point(scrollView.contentOffset), viewportSize: Size(scrollView.bounds.size), at: now())
    }

    // A drag released at rest ends the motion: no deceleration (and no
    // `scrollViewDidEndDecelerating`) follows, and a later scroll must not
    // be planned against the landing its drag announced.
    func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool) {
        if !decelerate { endMotion(of: scrollView) }
        forward(as: (any UIScrollViewDelegate).self) {
            $0.scrollViewDidEndDragging?(scrollView, willDecelerate: decelerate)
        }
    }

    func scrollViewDidEndDecelerating(_ scrollView: UIScrollView) {
        endMotion(of: scrollView)
        forward(as: (any UIScrollViewDelegate).self) { $0.scrollViewDidEndDecelerating?(scrollView) }
    }

    /// An animated scroll the app starts (see
    /// `PrefetchCoordinator.scrollViewWillAnimateScroll(_:to:)`).
    func scrollViewWillAnimateScroll(_ scrollView: UIScrollView, to targetContentOffset: CGPoint) {
        coordinator(of: scrollView)?.scrollViewWillAnimateScroll(
            to: Point(targetContentOffset), contentOffset: Point(scrollView.contentOffset),
            viewportSize: Size(scrollView.bounds.size), at: now())
    }

    // A tap on the status bar scrolls to the top, with an animation, if
    // the app's delegate lets it (UIKit's default: it does).
    func scrollViewShouldScrollToTop(_ scrollView: UIScrollView) -> Bool {
        let answer: Bool?? = attachment.forward {
            ($0 as? any UIScrollViewDelegate)?.scrollViewShouldScrollToTop?(scrollView)
        }
        let scrolls = (answer ?? nil) ?? true
        if scrolls {
            scrollViewWillAnimateScroll(
                scrollView, to: CGPoint(x: scrollView.contentOffset.x, y: -scrollView.adjustedContentInset.top))
        }
        return scrolls
    }

    func scrollViewDidScrollToTop(_ scrollView: UIScrollView) {
        endMotion(of: scrollView)
        forward(as: (any UIScrollViewDelegate).self) { $0.scrollViewDidScrollToTop?(scrollView) }
    }

    func scrollViewDidEndScrollingAnimation(_ scrollView: UIScrollView) {
        endMotion(of: scrollView)
        forward(as: (any UIScrollViewDelegate).self) { $0.scrollViewDidEndScrollingAnimation?(scrollView) }
    }

    /// A motion ended (a drag began or was released at rest, a deceleration
    /// or an animated scroll ended): the coordinator drops its announced target.
    private func endMotion(of scrollView: UIScrollView) {
        coordinator(of: scrollView)?.scrollViewDidEndFling()
    }

    // A cell shown, perhaps again without a new `cellForItemAt` (UIKit
    // keeps recently used cells ready): its request is ranked up again.
    func collectionView(
        _ collectionView: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt indexPath: IndexPath
    ) {
        coordinator(of: collectionView)?.willDisplay(cell, at: ItemPath(indexPath))
        forward(as: (any UICollectionViewDelegate).self) {
            $0.collectionView?(collectionView, willDisplay: cell, forItemAt: indexPath)
        }
    }

    func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {
        coordinator(of: tableView)?.willDisplay(cell, at: ItemPath(indexPath))
        forward(as: (any UITableViewDelegate).self) { $0.tableView?(tableView, willDisplay: cell, forRowAt: indexPath) }
    }

    // The cell names its request: the index path UIKit reports here is the
    // one before an update, for a cell it removes.
    func collectionView(
        _ collectionView: UICollectionView, didEndDisplaying cell: UICollectionViewCell,
        forItemAt indexPath: IndexPath
    ) {
        coordinator(of: collectionView)?.didEndDisplaying(cell)
        forward(as: (any UICollectionViewDelegate).self) {
            $0.collectionView?(collectionView, didEndDisplaying: cell, forItemAt: indexPath)
        }
    }

    func tableView(_ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath) {
        coordinator(of: tableView)?.didEndDisplaying(cell)
        forward(as: (any UITableViewDelegate).self) {
            $0.tableView?(tableView, didEndDisplaying: cell, forRowAt: indexPath)
        }
    }
}

/// A scroll view's delegate slot and the association that keeps its proxy alive.
extension UIScrollView: DelegateHost {
    var hostedDelegate: AnyObject? {
        get { delegate }
        set { delegate = newValue as? any UIScrollViewDelegate }
    }

    var retainedProxy: AnyObject? {
        get { objc_getAssociatedObject(self, ScrollViewProxyAssociation.key) as AnyObject? }
        set {
            objc_setAssociatedObject(self, ScrollViewProxyAssociation.key, newValue, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        }
    }
}

/// The key a view keeps its proxy under: an address of its own.
@MainActor
private enum ScrollViewProxyAssociation {
    static let key = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))
}
#endif
