// The one switch for Instruments: a coordinator's planning, cache hits and
// its fetcher's loads as os_signpost intervals and events. Off by default;
// where `os` does not exist (Linux) the switch stays off.

extension PrefetchCoordinator {
    /// Whether each frame's planning, each cache hit and each of the
    /// fetcher's loads (started → succeeded, failed or cancelled) are
    /// reported to Instruments as `os_signpost` intervals and events, under
    /// the subsystem "Lookahead" — so that a team sees prefetching next to
    /// their scrolling hitches in the Points of Interest and os_signpost
    /// instruments.
    ///
    /// Off by default: reading the fetcher's events costs a task and a
    /// buffer. Where the `os` module does not exist (Linux), setting it does
    /// nothing and it stays `false`.
    public var isSignpostingEnabled: Bool {
        get { signposts != nil }
        set {
            guard newValue != (signposts != nil) else { return }
            #if canImport(os)
            signposts = newValue ? FetchSignposts(fetcher: fetcher) : nil
            #endif
        }
    }
}
