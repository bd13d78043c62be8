/// The words a view uses in its precondition messages, so that a mistake is
/// reported in the terms of the API the caller used.

import Lookahead

struct ItemViewVocabulary: Sendable {
    /// "CollectionView" or "TableView".
    var viewName: String
    /// "item" or "row".
    var noun: String
    /// The registration method, e.g. `register(_:forCellWithReuseIdentifier:)`.
    var register: String
    /// The dequeue method, e.g. `dequeueReusableCell(withReuseIdentifier:for:)`.
    var dequeue: String
    /// The data source's cell method, e.g. `collectionView(_:cellForItemAt:)`.
    var cellProvider: String
    /// The reload method, e.g. `reloadItems(at:)`.
    var reload: String

    static let collectionView = ItemViewVocabulary(
        viewName: "CollectionView", noun: "item", register: "register(_:forCellWithReuseIdentifier:)",
        dequeue: "dequeueReusableCell(withReuseIdentifier:for:)", cellProvider: "collectionView(_:cellForItemAt:)",
        reload: "reloadItems(at:)")

    static let tableView = ItemViewVocabulary(
        viewName: "TableView", noun: "row", register: "register(_:forCellReuseIdentifier:)",
        dequeue: "dequeueReusableCell(withIdentifier:for:)", cellProvider: "tableView(_:cellForRowAt:)",
        reload: "reloadRows(at:)")
}
