// The coordinator's hook for Instruments: where each frame's planning and
// each cache hit are reported. Portable, so that the coordinator needs no
// `#if`; FetchSignposts implements it where `os` exists.

/// Receives the coordinator's planning intervals and cache hits.
@MainActor
protocol PrefetchSignposting: AnyObject {
    /// A frame's planning began.
    func planningBegan()
    /// The frame's planning ended.
    func planningEnded()
    /// A display request was answered from the cache.
    func cacheHit()
}
