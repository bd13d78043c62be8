// The example's photos and their loader: a stand-in for an image API, with
// a network's latency. Replace it with your client.

import Lookahead

/// One photo of the grid.
public struct Photo: Identifiable, Hashable, Sendable {
    public let id: Int
}

/// A photo's pixels, as the example fakes them: a hue.
public struct PhotoImage: Sendable {
    public let hue: Double
}

/// Loads photos, ahead of the grid.
@MainActor
public final class PhotoStore {
    /// The photos, in grid order.
    public let photos = (0..<5_000).map(Photo.init(id:))
    /// The loader every cell and prefetch shares.
    public let fetcher = AsyncFetcher<Photo.ID, PhotoImage>(
        maxConcurrentLoads: 6, hedging: .recommended, hedgesDueSoonAtOnce: false
    ) { id in
        try await Task.sleep(for: .milliseconds(150 + id % 300))
        return PhotoImage(hue: Double(id % 360) / 360)
    }

    public init() {}
}
