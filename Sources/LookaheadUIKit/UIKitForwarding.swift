// The calls the UIKit glue makes on a coordinator, as one non-generic
// protocol: the delegate proxy and the prefetch data source are Objective-C
// objects and cannot be generic. Compiled
// only where UIKit exists.

#if canImport(UIKit) && !os(watchOS)
import Lookahead

/// What the UIKit glue tells a coordinator, whatever its key and value
/// types: the proxy and the prefetch data source are Objective-C objects
/// and cannot be generic.
@MainActor
protocol UIKitForwarding: AnyObject, Sendable {
    func scrollViewDidScroll(contentOffset: Point, viewportSize: Size, at time: Duration)
    func scrollViewWillEndDragging(
        velocity: Double, targetContentOffset: Point, contentOffset: Point, viewportSize: Size, at time: Duration)
    func scrollViewWillAnimateScroll(
        to targetContentOffset: Point, contentOffset: Point, viewportSize: Size, at time: Duration)
    func scrollViewDidEndFling()
    var scrollAxis: ScrollAxis { get }
    func willDisplay(_ cell: AnyObject, at path: ItemPath)
    func didEndDisplaying(_ cell: AnyObject)
    func prefetchItems(at paths: [ItemPath])
    func cancelPrefetchingForItems(at paths: [ItemPath])
}

extension PrefetchCoordinator: UIKitForwarding {}
#endif
