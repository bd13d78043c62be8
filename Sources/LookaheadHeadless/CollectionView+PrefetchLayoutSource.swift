// The headless collection view as a coordinator's layout source, as
// `LookaheadUIKit` makes a `UICollectionView` one: tests drive the
// coordinator through it on Linux.

public import Lookahead

extension CollectionView: PrefetchLayoutSource {
    /// The items of the grid whose frames intersect `rect`.
    ///
    /// - Complexity: O(log n + k) for k items.
    public func itemFrames(in rect: Rect) -> [ItemFrame] {
        let layout = collectionViewLayout
        return layout.itemPaths(in: rect).map { ItemFrame(path: $0, frame: layout.frame(at: $0)) }
    }
}
