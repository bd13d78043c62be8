/// What an ``ItemViewEngine`` asks of the view that owns it: the view's data
/// sources and layout settings, in the engine's terms.

import Lookahead

@MainActor
protocol ItemViewEngineDelegate: AnyObject {
    /// The item count of each section, from the data source; none without one.
    func engineItemCounts() -> [Int]

    /// The view's layout for these counts at this width.
    func engineMakeLayout(itemCounts: [Int], width: Double) -> any CollectionLayout

    /// The data source's cell for `path`, or `nil` without a data source.
    func engineCell(at path: ItemPath) -> Cell?

    /// Tells the view's delegate that `cell` is about to be shown at `path`.
    func engineWillDisplay(_ cell: Cell, at path: ItemPath)

    /// Tells the view's delegate that `cell` left the screen at `path`.
    func engineDidEndDisplaying(_ cell: Cell, at path: ItemPath)

    /// Whether a prefetch data source is attached.
    var engineCanPrefetch: Bool { get }

    /// Forwards to the prefetch data source's prefetch method.
    func enginePrefetch(_ paths: [ItemPath])

    /// Forwards to the prefetch data source's cancel method.
    func engineCancelPrefetching(_ paths: [ItemPath])
}
