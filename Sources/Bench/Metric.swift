import Events
import Scenario

/// One row of `bench`: our samples, the floor's measured in the same run, and the target.
package struct Metric {
    package let name: String
    package var unit = "ms"
    package let samples: [Double]
    /// What the same work costs with nothing in the way (or, for Foundation, what the floor costs); empty without
    /// `--floor`.
    package var floor: [Double] = []
    /// The target, and whether this run met it: nil when it is judged against a floor not measured.
    package var target: (text: String, met: (Percentiles, Percentiles?) -> Bool?)?

    package init(
        name: String, unit: String = "ms", samples: [Double], floor: [Double] = [],
        target: (text: String, met: (Percentiles, Percentiles?) -> Bool?)? = nil
    ) {
        (self.name, self.unit, self.samples, self.floor, self.target) = (name, unit, samples, floor, target)
    }

    package var ours: Percentiles { Percentiles(samples) }
    package var floorPercentiles: Percentiles? { floor.isEmpty ? nil : Percentiles(floor) }
    package var ratio: Double? { floorPercentiles.flatMap { $0.p50 > 0 ? ours.p50 / $0.p50 : nil } }
    package var met: Bool? { target.flatMap { $0.met(ours, floorPercentiles) } }

    package var json: JSON {
        var fields: [(String, JSON)] = [
            ("name", .string(name)), ("unit", .string(unit)), ("p50", .double(ours.p50)), ("p99", .double(ours.p99)),
            ("floor", floorPercentiles.map { .double($0.p50) } ?? .null),
            ("floorP99", floorPercentiles.map { .double($0.p99) } ?? .null), ("ratio", ratio.map { .double($0) } ?? .null),
        ]
        if let target { fields += [("target", .string(target.text)), ("met", met.map(JSON.bool) ?? .null)] }
        return .object(fields)
    }
}

/// A measurement that could not be made, in one line.
package struct BenchFailure: Error {
    package let message: String
    init(_ message: String) { self.message = message }
}
