/// Provides a ``CollectionView``'s item counts and cells:
/// `UICollectionViewDataSource`.
///
/// The view holds its data source weakly, as UIKit does: keep it alive yourself.

public import Lookahead

@MainActor
public protocol CollectionViewDataSource: AnyObject {
    /// The number of sections; 1 unless implemented.
    func numberOfSections(in collectionView: CollectionView) -> Int

    /// The number of items in `section`.
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int

    /// The cell for the item at `indexPath`, which has just become visible.
    ///
    /// Return a cell obtained from
    /// ``CollectionView/dequeueReusableCell(withReuseIdentifier:for:)`` during
    /// this call. The item's data may be loaded, in flight, or never requested:
    /// configure the cell for whichever it is.
    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: ItemPath) -> Cell
}

extension CollectionViewDataSource {
    /// One section.
    public func numberOfSections(in collectionView: CollectionView) -> Int { 1 }
}
