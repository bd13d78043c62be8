import Foundation
import Testing

@testable import LookaheadSimulation

@Suite(.timeLimit(.minutes(1)))
struct StandardNormalTests {
    /// Φ(x), from libm's erfc (accurate in both tails).
    private func cdf(_ x: Double) -> Double {
        0.5 * erfc(-x / 2.0.squareRoot())
    }

    @Test(arguments: [
        (0.5, 0.0),
        (0.99, 2.326_347_874_040_840_8),
        (0.001, -3.090_232_306_167_813_5),
        (0.975, 1.959_963_984_540_054),
        (0.025, -1.959_963_984_540_054),
        (0.841_344_746_068_542_9, 1.0),
        (1e-10, -6.361_340_902_404_056),
    ])
    func quantileMatchesKnownValues(p: Double, z: Double) {
        // Given a probability whose standard normal quantile is tabulated
        // When its quantile is computed
        let quantile = StandardNormal.quantile(p)

        // Then it matches to far better than 1e-6
        #expect(abs(quantile - z) < 1e-12, "Φ⁻¹(\(p)) = \(quantile), expected \(z)")
    }

    @Test func quantileInvertsTheCDFAcrossAllThreeRanges() {
        // Given points from −8 σ (AS 241's far tail) to +3 σ, every 1/16
        // (beyond +3 σ, Φ(x) is too close to 1 for a Double to say which x it was)
        for step in -128...48 {
            let x = Double(step) / 16

            // When the quantile of Φ(x) is computed
            let roundTrip = StandardNormal.quantile(cdf(x))

            // Then it gives x back
            #expect(abs(roundTrip - x) < 1e-10, "Φ⁻¹(Φ(\(x))) = \(roundTrip)")
        }
    }

    @Test func quantileIsAntisymmetric() {
        // Given dyadic probabilities in both tails and the middle, so that 1 − p is exact
        for p in [0x1p-52, 0x1p-40, 0x1p-20, 0x1p-10, 0x1p-7, 0.125, 0.375, 0.4375, 0.5] {
            // When the quantiles of p and 1 − p are computed
            // Then they are exactly opposite
            #expect(StandardNormal.quantile(p) == -StandardNormal.quantile(1 - p), "p = \(p)")
        }
    }

    @Test func z99IsTheQuantileAt99Percent() {
        #expect(abs(StandardNormal.quantile(0.99) - StandardNormal.z99) < 1e-15)
    }
}
