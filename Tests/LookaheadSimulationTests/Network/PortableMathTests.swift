import Foundation
import Testing

@testable import LookaheadSimulation

@Suite(.timeLimit(.minutes(1)))
struct PortableMathTests {
    /// The relative difference between two values, in units of Double's epsilon.
    private func ulps(_ value: Double, _ reference: Double) -> Double {
        abs(value - reference) / (abs(reference) * Double.ulpOfOne)
    }

    @Test func logAgreesWithLibmToAFewUlps() {
        // Given positive values over the whole range the model uses and beyond,
        // including both sides of every power-of-two boundary
        var values: [Double] = [1e-300, 0x1p-1022, 1e-20, 0x1p-54, 1e-10, 0.001, 0.5, 1.5, 2, 3, 1e10, 1e300]
        for step in 1...2_000 { values.append(Double(step) / 100) }
        for exponent in -60...60 {
            let power = Double(sign: .plus, exponent: exponent, significand: 1)
            values += [
                power.nextDown, power, power.nextUp, power * 1.414_213_562_373_095, power * 1.414_213_562_373_096,
            ]
        }

        for x in values {
            // When its logarithm is computed
            let log = PortableMath.log(x)

            // Then it is within a few ulps of libm's (or exactly 0 at 1)
            if x == 1 {
                #expect(log == 0)
            } else {
                #expect(ulps(log, Foundation.log(x)) <= 4, "log(\(x)) = \(log), libm \(Foundation.log(x))")
            }
        }
    }

    @Test func expAgreesWithLibmToAFewUlps() {
        // Given arguments from deep underflow to near overflow
        var values: [Double] = [-740, -700, -100, -30, -1e-10, 0, 1e-300, 1e-10, 30, 100, 700, 709.78]
        for step in -2_000...2_000 { values.append(Double(step) / 100) }

        for x in values {
            // When its exponential is computed
            let exp = PortableMath.exp(x)

            // Then it is within a few ulps of libm's (subnormal results only to their precision)
            let reference = Foundation.exp(x)
            if reference < Double.leastNormalMagnitude {
                #expect(abs(exp - reference) <= 2 * Double.leastNonzeroMagnitude, "exp(\(x))")
            } else {
                #expect(ulps(exp, reference) <= 4, "exp(\(x)) = \(exp), libm \(reference)")
            }
        }
    }

    @Test func expSaturatesOutsideTheRange() {
        #expect(PortableMath.exp(710) == .infinity)
        #expect(PortableMath.exp(-746) == 0)
        #expect(PortableMath.exp(0) == 1)
    }
}
