import Foundation
import Testing

@testable import LogAnalysis
@testable import SupervisorTesting

extension Processes {
    /// `analyze --html`: one page that holds the whole report and fetches nothing.
    @Suite struct HTMLReportCLI {
        /// A kill before render whose launch line carries markup and quotes, and a crash after render whose page
        /// line carries an entity: both must be shown as text, as written.
        static let log = #"""
            2025-03-02 10:11:12.120000+0100 My App[4100:99001] [Process] 0x10a2b3c40 - [PID=4107] WebProcessProxy::didFinishLaunching: <script>alert("x&y")</script> 'q' </pre>
            2025-03-02 10:11:12.120100+0100 My App [4100:99001] [ProcessSuspension]  0x10a2b3c40 - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess Background Assertion' for process with PID=4107
            2025-03-02 10:11:12.124000+0100 My App[4100:99002] [assertion] Error acquiring assertion: <Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}>
            2025-03-02 10:11:12.124300+0100 My App[4100:99002] [ProcessSuspension] 0x10a2b3c40 - ProcessAssertion: Failed to acquire RBS assertion 'WebProcess Foreground Assertion' for process with PID=4107, error: Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}
            2025-03-02 10:11:12.400000+0100 My App[4100:99001] [Process] 0x10a2b3c40 - [PID=4107] WebProcessProxy::didClose: (web process 0 crash)
            2025-03-02 10:11:13.000000+0100 My App[4100:99001] [Process] 0x10a2b3c40 - [PID=4120] WebProcessProxy::didFinishLaunching:
            2025-03-02 10:11:13.100000+0100 My App[4100:99001] [Loading] 0x4 - [pageProxyID=7, webPageID=8, PID=4120] WebPageProxy::didFinishDocumentLoadForFrame: <b>&amp;</b>
            2025-03-02 10:11:43.000000+0100 My App[4100:99001] [Process] 0x10a2b3c40 - [PID=4120] WebProcessProxy::didClose: (web process 0 crash)
            2025-03-02 10:11:43.000100+0100 My App[4100:99001] [Process] 0x10a2b3c40 - [PID=4120] WebProcessProxy::processDidTerminateOrFailedToLaunch: reason=3

            """#

        @Test func thePageHoldsTheVerdictEveryIncidentTheLanesAndEachLineAsWritten() throws {
            let folder = try TemporaryFolder(["app.log": Self.log])
            let log = folder.path + "/app.log"
            let file = folder.path + "/report.html"
            let result = try runSupervisor(["analyze", log, "--html", file])
            #expect(result.status == 0, "\(result.stderr)")
            let page = try String(contentsOfFile: file, encoding: .utf8)
            let verdict = try #require(result.stdout.components(separatedBy: "\n\n").last)
                .trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "\n", with: " ")
            #expect(verdict.hasPrefix("1 kill-before-render incident: pid 4107"))
            #expect(page.contains("<h1>\(escaped(verdict))</h1>"))

            let json = try runSupervisor(["analyze", log, "--json"])
            let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let incidents = try #require(report["incidents"] as? [[String: Any]])
            #expect(incidents.count == 2)
            let lines = Self.log.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var quoted = 0
            for incident in incidents {
                let pid = try #require(incident["pid"] as? Int)
                let kind = try #require(incident["kind"] as? String)
                let detail = try #require(incident["detail"] as? String)
                #expect(page.contains(">\(pid)</a></td>") && page.contains(">\(kind)</span> pid \(pid) "), "\(pid)")
                #expect(page.contains(escaped(detail)))
                // The lanes' chart, inline: this pid's lane, named as the chart names it.
                #expect(page.contains(">pid \(pid)  \(kind)</text>"), "\(pid)")
                for place in try #require(incident["evidence"] as? [String]) {
                    let number = try #require(place.split(separator: ":").last.flatMap { Int($0) })
                    let line = lines[number - 1]
                    #expect(page.contains("<pre>\(escaped(line))</pre>"), "\(place)")
                    #expect(page.contains("<code>\(escaped(place))</code>"))
                    quoted += 1
                }
            }
            #expect(quoted >= 6)
            #expect(page.contains(escaped(#"<script>alert("x&y")</script> 'q' </pre>"#)))
            #expect(page.contains("&lt;b&gt;&amp;amp;&lt;/b&gt;"))
            #expect(page.components(separatedBy: "<svg ").count == 2 && page.contains("</svg>"))
            #expect(page.hasPrefix("<!DOCTYPE html>") && page.hasSuffix("</html>\n"))
        }

        /// No script, stylesheet, font or image comes from anywhere else; links stay inside the page.
        @Test func thePageFetchesNothing() throws {
            let folder = try TemporaryFolder(["app.log": Self.log])
            let file = folder.path + "/report.html"
            let result = try runSupervisor(["analyze", folder.path + "/app.log", "--html", file])
            #expect(result.status == 0, "\(result.stderr)")
            let page = try String(contentsOfFile: file, encoding: .utf8).lowercased()
            let namespace = "http://www.w3.org/2000/svg"
            #expect(page.contains(namespace))
            #expect(!page.replacingOccurrences(of: namespace, with: "").contains("http"))
            for fetch in ["<script", "<link", "<img", "<iframe", "<object", "<embed", "@import", "url(", "src=", "//"] {
                let outside = page.replacingOccurrences(of: namespace, with: "")
                #expect(!outside.contains(fetch), "\(fetch)")
            }
            let links = page.components(separatedBy: "href=\"").dropFirst()
            #expect(!links.isEmpty && links.allSatisfy { $0.hasPrefix("#") })
        }

        /// The page cannot replace a log it reads, nor the chart written beside it, and the refusal comes before
        /// anything is read or written.
        @Test func thePageIsRefusedAsAnInputOrAsTheChart() throws {
            let folder = try TemporaryFolder(["app.log": Self.log])
            let log = folder.path + "/app.log"
            try FileManager.default.createSymbolicLink(atPath: folder.path + "/alias.log", withDestinationPath: log)
            for (arguments, message) in [
                ([log, "--html", log], "'\(log)' cannot be both a log to analyze and the HTML report"),
                ([log, "--html", folder.path + "/alias.log"], "(one file) cannot be both a log to analyze and the HTML report"),
                ([log, "--svg", folder.path + "/out", "--html", folder.path + "/out"], "cannot be both the chart and the HTML report"),
            ] {
                let result = try runSupervisor(["analyze"] + arguments)
                #expect(result.status == 64, "\(arguments)")
                #expect(unwrapped(result.stderr).hasPrefix("supervisor: error: ") && unwrapped(result.stderr).contains(message),
                        "\(result.stderr)")
                #expect(result.stdout.isEmpty)
                #expect(try String(contentsOfFile: log, encoding: .utf8) == Self.log)
                #expect(!FileManager.default.fileExists(atPath: folder.path + "/out"))
            }
        }

        private func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
                .replacingOccurrences(of: "'", with: "&#39;")
        }
    }
}
