// A RowPrefetcher SwiftUI views can observe: the list of keys is an
// observed property, set on the main actor as pages arrive. Compiled only
// where SwiftUI (and Observation, iOS 17 / macOS 14) exists.

#if canImport(SwiftUI)
    public import Lookahead
    public import Observation

    /// Rows' prefetching for views that observe it: a `RowPrefetcher` whose
    /// ``keys`` views read (and re-render when they change).
    ///
    /// ```swift
    /// @State private var rows = ObservableRowPrefetcher(prefetcher: prefetcher, keys: ids)
    /// ForEach(Array(rows.keys.enumerated()), id: \.element) { index, id in
    ///     Row(id: id).lookaheadPrefetch(index, in: rows.prefetcher)
    /// }
    /// // a page arrived:
    /// rows.keys = pager.items.map(\.id)
    /// ```
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @MainActor
    @Observable
    public final class ObservableRowPrefetcher<Key: Hashable & Sendable, Value: Sendable> {
        /// The prefetcher the rows report to; the keys are looked up on the main actor.
        public let prefetcher: RowPrefetcher<Key, Value>

        /// The keys of the rows; setting it tells the prefetcher the new count.
        public var keys: [Key] {
            didSet { prefetcher.setKeys(keys) }
        }

        /// Creates an observable row prefetcher; see `RowPrefetcher.init(prefetcher:keys:window:debounce:clock:)`.
        public init(
            prefetcher: Prefetcher<Key, Value>, keys: [Key], window: PrefetchWindowSizing = .adaptive,
            debounce: Duration = .milliseconds(50)
        ) {
            self.prefetcher = RowPrefetcher(prefetcher: prefetcher, keys: keys, window: window, debounce: debounce)
            self.keys = keys
        }
    }
#endif
