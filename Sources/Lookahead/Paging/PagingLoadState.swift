/// Where loading at one end of a paged list stands, for the UI to show a
/// spinner, an error with a retry button, or nothing.
public enum PagingLoadState: Hashable, Sendable {
    /// Nothing is loading; more will load when the user scrolls near this end.
    case idle
    /// A page is loading, or waiting to be retried after a transient failure.
    case loading
    /// The page failed and will not be retried until `retry()` is called.
    case failed(String)
    /// The source has nothing more at this end.
    case endReached
}
