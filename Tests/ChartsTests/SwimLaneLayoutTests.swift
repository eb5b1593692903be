import Foundation
import FoundationXML
import Testing
@testable import SupervisorTesting

extension Processes {
    /// Where `analyze --svg` puts things: every lane's detail clear of the names and inside the page, a note for
    /// the lanes left out, and no time scale a log without times could not support.
    @Suite struct SwimLaneLayout {
        /// 10:11:12 plus `micros`, as a log line writes it.
        static func clock(_ micros: Int) -> String {
            let total = 10 * 3600 + 11 * 60 + 12 + micros / 1_000_000
            let fraction = String(micros % 1_000_000)
            return String(format: "%02d:%02d:%02d", total / 3600, total / 60 % 60, total % 60) + "."
                + String(repeating: "0", count: 6 - fraction.count) + fraction
        }

        /// `pid` launched at `launch` µs; when `failed` is given, raised to foreground then and found gone.
        static func process(_ pid: Int, launch: Int, failed: Int? = nil) -> String {
            Fixture.launched(failed.map { Fixture.failure(pid: pid, at: clock($0)) } ?? "", pid: pid, at: clock(launch))
        }

        @Test func eightyProcessesGiveSixtyLanesAndSayHowManyMore() throws {
            var log = ""
            for i in 0..<80 {
                let launch = i * 10_000
                log += Self.process(5000 + i, launch: launch, failed: i % 16 == 15 ? launch + 3000 : nil)
            }
            let chart = try Chart(log)
            #expect(chart.incidents.count == 5)
            #expect(chart.names.count == 60)
            #expect(Set(chart.incidents.keys).isSubset(of: Set(chart.names.map(\.content))))
            #expect(chart.texts.contains { $0.content.hasPrefix("20 more not shown") })
        }

        /// Xcode 15's message-only lines carry no time: the lanes follow the order of the lines and say so, with
        /// no tick that reads as a time.
        @Test func aLogWithoutTimesIsDrawnInLineOrder() throws {
            let chart = try Chart(Fixture.messageOnly)
            #expect(chart.names.count == 1)
            #expect(chart.texts.contains { $0.content.hasPrefix("line order") })
            let timed = chart.texts.filter { $0.content == "0" || $0.content.hasPrefix("+") || $0.content.contains("µs") }
            #expect(timed.isEmpty, "\(timed.map(\.content))")
            #expect(!chart.texts.contains { $0.content.hasPrefix("time since") })
        }

        /// Lanes that run the whole width, and some that end at the right edge: each detail is drawn where it fits,
        /// cut if it must be, never over a lane's name and never past the edge.
        @Test func noDetailCoversANameOrRunsOffTheEdge() throws {
            var log = Self.process(6000, launch: 0, failed: 9_000_000)
            for k in 1...8 { log += Self.process(6000 + k, launch: k * 1_000_000, failed: k * 1_000_000 + 3000) }
            log += Self.process(6009, launch: 9_001_000, failed: 9_004_000)
            let chart = try Chart(log)
            #expect(chart.incidents.count == 10 && chart.names.count == 10)
            #expect(chart.details.count >= 9)
            for detail in chart.details {
                #expect(detail.left >= 0 && detail.right <= chart.width, "\(detail.content): \(detail.left)-\(detail.right)")
                for name in chart.names where abs(name.y - detail.y) < 12 {
                    #expect(detail.right <= name.left || detail.left >= name.right,
                            "'\(detail.content)' at \(detail.left)-\(detail.right) covers '\(name.content)' at \(name.left)-\(name.right)")
                }
            }
        }

        /// The `<text>` elements of the chart `analyze --svg` draws for `log`, and the incidents found in it.
        struct Chart {
            struct Text {
                var attributes: [String: String]
                var content = ""
                var x: Double { Double(attributes["x"] ?? "") ?? 0 }
                var y: Double { Double(attributes["y"] ?? "") ?? 0 }
                /// The width the chart pinned it to, or a generous guess for text it did not pin.
                var width: Double {
                    if let pinned = attributes["textLength"].flatMap(Double.init) { return pinned }
                    let size = Double(attributes["font-size"] ?? "") ?? 12
                    return Double(content.count) * 0.6 * size * (attributes["font-weight"] == "bold" ? 1.1 : 1)
                }
                var left: Double {
                    switch attributes["text-anchor"] {
                    case "end": x - width
                    case "middle": x - width / 2
                    default: x
                    }
                }
                var right: Double { left + width }
            }

            var texts: [Text] = []
            var width = 0.0
            /// Each incident's lane name (`pid 1  kind`) and its detail.
            var incidents: [String: String] = [:]

            var names: [Text] { texts.filter { $0.content.hasPrefix("pid ") } }
            /// Texts that are an incident's detail, whole or cut with `…`.
            var details: [Text] {
                let all = Set(incidents.values)
                return texts.filter { text in
                    all.contains(text.content)
                        || text.content.hasSuffix("…") && all.contains { $0.hasPrefix(text.content.dropLast()) }
                }
            }

            init(_ log: String) throws {
                let folder = try TemporaryFolder(["app.log": log])
                let svg = folder.path + "/lanes.svg"
                let result = try runSupervisor(["analyze", folder.path + "/app.log", "--svg", svg, "--json"])
                try #require(result.status == 0, "\(result.stderr)")
                let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
                for incident in try #require(json["incidents"] as? [[String: Any]]) {
                    let pid = try #require(incident["pid"] as? Int)
                    incidents["pid \(pid)  \(try #require(incident["kind"] as? String))"] = try #require(incident["detail"] as? String)
                }
                let reader = TextReader()
                let parser = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: svg)))
                parser.delegate = reader
                try #require(parser.parse(), "not well-formed SVG")
                texts = reader.texts
                width = reader.width
            }
        }

        /// Collects each `<text>` with its own characters (not its tooltip's) and the SVG's width.
        final class TextReader: NSObject, XMLParserDelegate {
            var texts: [Chart.Text] = []
            var width = 0.0
            private var inText = false
            private var inTitle = false

            func parser(
                _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                switch name {
                case "svg": width = Double(attributes["width"] ?? "") ?? 0
                case "text":
                    texts.append(Chart.Text(attributes: attributes))
                    inText = true
                case "title": inTitle = true
                default: break
                }
            }

            func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
                if name == "text" { inText = false }
                if name == "title" { inTitle = false }
            }

            func parser(_ parser: XMLParser, foundCharacters string: String) {
                if inText && !inTitle { texts[texts.count - 1].content += string }
            }
        }
    }
}
