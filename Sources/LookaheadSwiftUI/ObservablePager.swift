// A Pager SwiftUI views can observe: its snapshot (rows, placeholders, load
// states) as an observed property, updated on the main actor after each
// change. Compiled only where SwiftUI (and Observation) exists.

#if canImport(SwiftUI)
public import Lookahead
public import Observation

/// A `Pager` whose ``snapshot`` views observe.
///
/// Takes over the pager's `onChange` (as `PagedDataSource` does: use
/// one or the other). Changes that arrive together are applied in one
/// main-actor update.
///
/// <!-- snippet: declarations -->
/// ```swift
/// @available(iOS 17, *)
/// @MainActor
/// struct Stories: View {
///     @State private var feed = ObservablePager(
///         Pager<Story>(configuration: PagingConfiguration(pageSize: 20)) { request in
///             guard case .offset(let offset) = request.key else { return Page(items: []) }
///             return Page(items: try await api.stories(offset: offset, limit: request.limit).stories)
///         })
///
///     var body: some View {
///         List(0..<feed.snapshot.count, id: \.self) { row in
///             Text(feed.snapshot.item(at: row).map { "Story \($0.id)" } ?? "…")
///                 .onAppear { feed.pager.accessed(index: row) }
///         }
///         .task { feed.pager.start(firstScreenItemCount: 10) }
///     }
/// }
/// ```
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor
@Observable
public final class ObservablePager<Item: Identifiable & Sendable> {
    /// The pager.
    public let pager: Pager<Item>
    /// The rows and load states, as of the last main-actor update.
    public private(set) var snapshot: PagedListSnapshot<Item>

    /// Observes `pager`.
    public init(_ pager: Pager<Item>) {
        self.pager = pager
        self.snapshot = pager.snapshot
        pager.observeOnMainActor { [weak self] in
            guard let self else { return }
            self.snapshot = self.pager.snapshot
        }
    }
}
#endif
