import Foundation
import FoundationXML
import Testing
@testable import SupervisorTesting

extension BesideOthers {
    /// `compare`'s frontier as a user meets it: the table's last line, the JSON, and the chart's cost panel (one
    /// point per policy, the frontier's points filled and joined, the verdict naming them, names clear of each other).
    @Suite struct CostChart {
        static let raced = [
            "compare", "--loads", "6", "--inject-race", "1/2", "--watchdog", "100", "--blank-timeout", "300",
            "--policies", "none,reload,guarded",
        ]

        /// The frontier recomputed here from the costs the JSON reports, every pair compared.
        static func frontier(_ runs: [[String: Any]]) -> [String] {
            let points = runs.compactMap { run -> (name: String, x: Double, y: Double)? in
                guard let cost = run["cost"] as? [String: Any], let x = cost["protectedWorkerMsPerLoad"] as? Double,
                      let y = cost["waitMsPerLoad"] as? Double else { return nil }
                return (run["policy"] as? String ?? "", x, y)
            }
            let kept = points.filter { p in !points.contains { $0.x <= p.x && $0.y <= p.y && ($0.x < p.x || $0.y < p.y) } }
            return kept.enumerated().sorted { ($0.element.x, $0.offset) < ($1.element.x, $1.offset) }.map(\.element.name)
        }

        @Test func theFrontierIsTheSameInTheJSONTheTableAndTheChart() throws {
            let folder = try TemporaryFolder([:])
            let svg = folder.path + "/compare.svg"
            let json = try runSupervisor(Self.raced + ["--json", "--svg", svg])
            #expect(json.status == 0, "\(json.stderr)")
            let output = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let runs = try #require(output["runs"] as? [[String: Any]])
            let frontier = try #require(output["frontier"] as? [String])
            #expect(frontier == Self.frontier(runs))
            // Guarded met no fault: it waited least of all, so nothing beats it; none and reload lost the same loads.
            #expect(frontier.contains("guarded"))
            for run in runs {
                let cost = try #require(run["cost"] as? [String: Any])
                #expect(Set(cost.keys) == ["waitMsPerLoad", "protectedWorkerMsPerLoad", "spawnsPerLoad"])
                #expect(cost.values.allSatisfy { $0 is Double }, "a run that ran loads has every cost")
            }

            let chart = try SVG(svg)
            let points = chart.elements.filter { $0.attributes["class"] == "cost-point" }
            #expect(points.compactMap { $0.attributes["data-policy"] } == ["none", "reload", "guarded"])
            #expect(points.filter { $0.attributes["fill"] != "white" }.compactMap { $0.attributes["data-policy"] }.sorted()
                == frontier.sorted())
            #expect(chart.texts.filter { $0.attributes["class"] == "cost-label" }.map(\.content) == ["none", "reload", "guarded"])
            let verdict = "Frontier: " + frontier.joined(separator: ", ")
            #expect(chart.texts.contains { $0.content.hasPrefix(verdict + " — ") || $0.content.hasPrefix(verdict + ",") })
            #expect(chart.elements.contains { $0.attributes["class"] == "frontier" } == (frontier.count > 1))

            // Another run: the same faults, but protected time is measured on the wall clock and may differ by a
            // hair, which can move the policies that lost the same loads on or off the frontier; guarded stays.
            let text = try runSupervisor(Self.raced)
            #expect(text.status == 0, "\(text.stderr)")
            let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let prefix = "frontier (wait against protected worker-ms, per load): "
            let line = try #require(lines.first { $0.hasPrefix(prefix) })
            let names = line.dropFirst(prefix.count).split(separator: ", ").map(String.init)
            #expect(names.contains("guarded") && Set(names).isSubset(of: ["none", "reload", "guarded"]))
            #expect(lines.firstIndex(of: line).map { lines[$0 - 1].isEmpty && lines[$0 + 1].isEmpty } == true)
            #expect(lines.allSatisfy { $0.count <= 100 })
        }

        /// Eight policies, several at nearly one spot: every name is clear of every other name and of every point.
        @Test func eightNamesDoNotOverlap() throws {
            let folder = try TemporaryFolder([:])
            let svg = folder.path + "/compare.svg"
            // Copies of none and reload, under names of their own, land next to them.
            let policies = "none;reload;webkit-default;base=none,name=none-copy;base=reload,name=reload-copy;"
                + "base=webkit-default,name=webkit-copy;rebuild;guarded"
            let result = try runSupervisor(["compare", "--loads", "4", "--policies", policies, "--svg", svg])
            #expect(result.status == 0, "\(result.stderr)")
            let chart = try SVG(svg)
            let points = chart.elements.filter { $0.attributes["class"] == "cost-point" }.map { point in
                let (x, y) = (point.number("cx"), point.number("cy"))
                return Box(minX: x - 5, minY: y - 5, maxX: x + 5, maxY: y + 5)
            }
            let labels = chart.texts.filter { $0.attributes["class"] == "cost-label" }.map { label in
                Box(minX: label.number("x"), minY: label.number("y") - 11, maxX: label.number("x") + label.number("textLength"),
                    maxY: label.number("y") + 3)
            }
            #expect(points.count == 8 && labels.count == 8)
            for (i, label) in labels.enumerated() {
                #expect(label.minX >= 0 && label.maxX <= chart.width)
                for other in labels[(i + 1)...] { #expect(!label.overlaps(other), "\(label) \(other)") }
                for point in points { #expect(!label.overlaps(point), "\(label) \(point)") }
            }
        }

        struct Box: CustomStringConvertible {
            var minX, minY, maxX, maxY: Double
            func overlaps(_ other: Box) -> Bool {
                minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
            }
            var description: String { "(\(minX), \(minY))–(\(maxX), \(maxY))" }
        }

        /// An SVG's elements with their attributes, and each `<text>` with its own characters.
        final class SVG: NSObject, XMLParserDelegate {
            struct Element {
                var name: String
                var attributes: [String: String]
                var content = ""
                func number(_ key: String) -> Double { Double(attributes[key] ?? "") ?? .nan }
            }
            var elements: [Element] = []
            var width = 0.0
            var texts: [Element] { elements.filter { $0.name == "text" } }
            private var open: Int?

            init(_ path: String) throws {
                super.init()
                let parser = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: path)))
                parser.delegate = self
                try #require(parser.parse(), "not well-formed SVG")
            }

            func parser(
                _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                if name == "svg" { width = Double(attributes["width"] ?? "") ?? 0 }
                elements.append(Element(name: name, attributes: attributes))
                open = name == "text" ? elements.count - 1 : nil
            }

            func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
                open = nil
            }

            func parser(_ parser: XMLParser, foundCharacters string: String) {
                if let open { elements[open].content += string }
            }
        }
    }
}
