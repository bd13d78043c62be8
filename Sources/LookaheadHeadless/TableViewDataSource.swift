/// Provides a ``TableView``'s row counts and cells: `UITableViewDataSource`.
///
/// The view holds its data source weakly, as UIKit does: keep it alive yourself.

public import Lookahead

@MainActor
public protocol TableViewDataSource: AnyObject {
    /// The number of sections; 1 unless implemented.
    func numberOfSections(in tableView: TableView) -> Int

    /// The number of rows in `section`.
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int

    /// The cell for the row at `indexPath`, which has just become visible.
    ///
    /// Return a cell obtained from
    /// ``TableView/dequeueReusableCell(withIdentifier:for:)`` during this call.
    /// The row's data may be loaded, in flight, or never requested: configure
    /// the cell for whichever it is.
    func tableView(_ tableView: TableView, cellForRowAt indexPath: ItemPath) -> Cell
}

extension TableViewDataSource {
    /// One section.
    public func numberOfSections(in tableView: TableView) -> Int { 1 }
}
