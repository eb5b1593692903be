/// The Pareto frontier of points on two costs, lower being better on both: the points no other point beats. It
/// says which choices are worth considering at all, without weighing one cost against the other.
public enum Frontier {
    public struct Point: Equatable, Sendable {
        public var x: Double
        public var y: Double

        public init(x: Double, y: Double) {
            (self.x, self.y) = (x, y)
        }
    }

    /// Whether `a` beats `b`: no worse on either cost and better on one. Equal points beat neither, so a tie keeps
    /// both on the frontier.
    public static func beats(_ a: Point, _ b: Point) -> Bool {
        a.x <= b.x && a.y <= b.y && (a.x < b.x || a.y < b.y)
    }

    /// The indices of the points that no other point beats, in the order given.
    public static func indices(of points: [Point]) -> [Int] {
        points.indices.filter { i in !points.contains { beats($0, points[i]) } }
    }
}
