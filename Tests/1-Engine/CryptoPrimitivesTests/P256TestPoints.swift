// Projective-coordinate views of the Jacobian scalar multiplications, so the point tests can
// compare their results with the projective reference ladder (P256PointTests.ladder).

@testable import CryptoPrimitives
import CryptoCore

extension P256 {
    /// k·P through the constant-time variable-base multiplication, in projective coordinates.
    static func multiply(_ point: ProjectivePoint, by k: FixedUInt<4>) -> ProjectivePoint {
        ProjectivePoint(multiplyJacobian(point.jacobian, by: k))
    }

    /// k·G through the constant-time fixed-base multiplication, in projective coordinates.
    static func multiplyGenerator(by k: FixedUInt<4>) -> ProjectivePoint {
        ProjectivePoint(multiplyGeneratorJacobian(by: k))
    }
}

extension P256.ProjectivePoint {
    /// 2ᵏ·P by k Jacobian doublings between two coordinate conversions.
    func doubled(repeatedly count: Int) -> Self {
        var point = jacobian
        for _ in 0..<count { point = point.doubled() }
        return Self(point)
    }
}
