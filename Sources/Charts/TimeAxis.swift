import Glibc
import Text

/// The swim lanes' shared axis. With times, each gap between consecutive steps is drawn in proportion to the
/// logarithm of its length, so a 3 ms race and a 3 s watchdog both fit, in order. A log without times (Xcode 15's
/// message-only lines) gives only the order of its lines: its steps are spaced evenly and no time is labelled, since
/// any scale would be invented.
struct TimeAxis {
    enum Scale {
        /// Microseconds.
        case time
        /// Record numbers.
        case lineOrder
    }

    private let positions: [Double: Double]
    let ticks: [(x: Double, label: String)]
    let caption: String

    init(_ all: [Double], width: Double, scale: Scale) {
        let times = Array(Set(all)).sorted()
        var position = 0.0
        var positions: [Double] = []
        for (i, time) in times.enumerated() {
            if i > 0 { position += scale == .time ? log10(1 + (time - times[i - 1]) / 10) + 0.05 : 1 }
            positions.append(position)
        }
        let scaled = (positions.last ?? 0) > 0 ? width / positions.last! : 0
        let xs = positions.map { $0 * scaled }
        self.positions = Dictionary(uniqueKeysWithValues: zip(times, xs))
        guard scale == .time else {
            ticks = []
            caption = "line order: the log has no times, so steps are drawn in the order of their lines, evenly spaced"
            return
        }
        var ticks: [(Double, String)] = []
        var lastX = -1000.0
        let origin = times.first ?? 0
        for (time, x) in zip(times, xs) where x - lastX >= 70 {
            ticks.append((x, x == 0 ? "0" : "+" + Self.label(time - origin)))
            lastX = x
        }
        self.ticks = ticks
        caption = "time since the first step (gaps drawn on a log scale: milliseconds and seconds both stay visible)"
    }

    func x(_ time: Double) -> Double { positions[time] ?? 0 }

    private static func label(_ micros: Double) -> String {
        duration(Int(micros.rounded()))
    }
}
