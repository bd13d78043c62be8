extension ScrollTraceGenerator {
    /// A way of scrolling: the gestures a simulated user makes and how often.
    ///
    /// Every style starts at the top and heads down the content; it turns to
    /// head up only on reaching the bottom (and down again at the top). Speeds
    /// are in pt/s, durations in seconds, probabilities per gesture; drag
    /// speeds wander within ±10 %. A flick is a 0.03–0.08 s finger contact at
    /// the fling's speed, then the fling. Flings decelerate at UIScrollView's
    /// 0.998 per ms and stop below 20 pt/s or dead at the content's edge. A
    /// pause never follows a pause; a reversal lasts one gesture (the next
    /// one heads on).
    public enum Style: String, Hashable, Sendable, CaseIterable {
        /// A person reading a feed: mostly slow drags down with pauses to read.
        ///
        /// - Drags at 150–600 pt/s for 0.3–1.2 s; 60 % of them end in a fling
        ///   at 1–1.4 × the drag's speed.
        /// - Flicks (12 % of gestures): flings at 1,500–4,000 pt/s.
        /// - Reversals: 10 % of gestures go up, each a short step back: a plain
        ///   drag at 150–600 pt/s for 0.15–0.6 s, never a fling.
        /// - Pauses to read after 65 % of gestures: 0.5–6 s.
        case reading
        /// Browsing a photo grid: fast flings with frequent reversals.
        ///
        /// - Flicks (60 % of gestures): flings at 3,000–8,000 pt/s.
        /// - Drags at 300–900 pt/s for 0.15–0.5 s; 80 % end in a fling at
        ///   1.2–2 × the drag's speed.
        /// - Reversals: 25 % of gestures.
        /// - Short pauses after 50 % of gestures: 0.5–1.5 s.
        case photos
        /// Long flings through the content.
        ///
        /// - Flicks (85 % of gestures): flings at 6,000–10,000 pt/s.
        /// - Drags at 400–900 pt/s for 0.15–0.3 s, always ending in a fling
        ///   at 1.5–3 × the drag's speed.
        /// - Reversals: 30 % of gestures.
        /// - Short pauses after 50 % of gestures: 0.3–1 s.
        case flinging
        /// Reading, with jumps to the top and back.
        ///
        /// Reads as `.reading`; every 15–30 s it jumps to the top ("scroll to
        /// top", a 0.3 s animation), reads there for 1–4 s without moving,
        /// then jumps back (0.3 s) to 1–1.5 × the offset it left from, and
        /// reads on from there.
        case jumping

        var parameters: TraceGestureParameters {
            switch self {
            case .reading:
                return TraceGestureParameters(
                    dragSpeed: 150...600, dragDuration: 0.3...1.2,
                    releaseFlingProbability: 0.6, releaseBoost: 1.0...1.4,
                    flickProbability: 0.12, flickSpeed: 1_500...4_000,
                    reversalProbability: 0.10, shortReversals: true,
                    pauseProbability: 0.65, pauseDuration: 0.5...6)
            case .photos:
                return TraceGestureParameters(
                    dragSpeed: 300...900, dragDuration: 0.15...0.5,
                    releaseFlingProbability: 0.8, releaseBoost: 1.2...2.0,
                    flickProbability: 0.6, flickSpeed: 3_000...8_000,
                    reversalProbability: 0.25,
                    pauseProbability: 0.5, pauseDuration: 0.5...1.5)
            case .flinging:
                return TraceGestureParameters(
                    dragSpeed: 400...900, dragDuration: 0.15...0.3,
                    releaseFlingProbability: 1, releaseBoost: 1.5...3.0,
                    flickProbability: 0.85, flickSpeed: 6_000...10_000,
                    reversalProbability: 0.30,
                    pauseProbability: 0.5, pauseDuration: 0.3...1)
            case .jumping:
                var parameters = Style.reading.parameters
                parameters.jumps = TraceGestureParameters.Jumps(
                    interval: 15...30, readAtTop: 1...4, returnDepth: 1...1.5)
                return parameters
            }
        }
    }
}
