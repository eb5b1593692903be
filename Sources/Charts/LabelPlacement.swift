/// Where a chart writes the name beside each point so that no two names, and no name and point, overlap: each
/// name takes the nearest free spot around its point, trying the eight directions at growing distances, and is
/// tied to its point by a leader line once it had to move away.
enum LabelPlacement {
    struct Box: Equatable {
        var minX, minY, maxX, maxY: Double

        func overlaps(_ other: Box) -> Bool {
            minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
        }

        func inside(_ bounds: Box) -> Bool {
            minX >= bounds.minX && maxX <= bounds.maxX && minY >= bounds.minY && maxY <= bounds.maxY
        }

        /// How much of `other` this box covers: how bad a spot is when no spot is free.
        func overlap(_ other: Box) -> Double {
            max(0, min(maxX, other.maxX) - max(minX, other.minX)) * max(0, min(maxY, other.maxY) - max(minY, other.minY))
        }
    }

    struct Label {
        var x, y: Double
        var width, height: Double
    }

    /// Distances from the point to the nearest edge of its name, nearest first.
    static let distances: [Double] = [7, 16, 28, 42, 60, 82, 110, 145]
    /// Directions as (dx, dy), right of the point first: names read from their point.
    static let directions: [(Double, Double)] = [(1, 0), (-1, 0), (0, -1), (0, 1), (1, -1), (1, 1), (-1, -1), (-1, 1)]

    /// One box per label, in the order given, each inside `bounds` when it fits and clear of `obstacles`, of the
    /// boxes placed before it and of every label's point; when no spot is clear, the one that overlaps least.
    static func place(_ labels: [Label], within bounds: Box, avoiding obstacles: [Box]) -> [Box] {
        let points = labels.map { Box(minX: $0.x - 5, minY: $0.y - 5, maxX: $0.x + 5, maxY: $0.y + 5) }
        var placed: [Box] = []
        for label in labels {
            var best: (box: Box, overlap: Double)?
            search: for distance in distances {
                for direction in directions {
                    let box = spot(label, direction, distance)
                    guard box.inside(bounds) else { continue }
                    let overlap = (obstacles + points + placed).reduce(0) { $0 + box.overlap($1) }
                    if overlap < best?.overlap ?? .infinity { best = (box, overlap) }
                    if overlap == 0 { break search }
                }
            }
            placed.append(best?.box ?? spot(label, directions[0], distances[0]))
        }
        return placed
    }

    /// The box of `label` `distance` away from its point in `direction`: centred on the point along an axis it does
    /// not move on.
    private static func spot(_ label: Label, _ direction: (Double, Double), _ distance: Double) -> Box {
        let minX = switch direction.0 {
        case 1: label.x + distance
        case -1: label.x - distance - label.width
        default: label.x - label.width / 2
        }
        let minY = switch direction.1 {
        case 1: label.y + distance
        case -1: label.y - distance - label.height
        default: label.y - label.height / 2
        }
        return Box(minX: minX, minY: minY, maxX: minX + label.width, maxY: minY + label.height)
    }
}
