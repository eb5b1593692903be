import Foundation
import Glibc
import Testing
import WireProtocol

@testable import Events
@testable import LogAnalysis
@testable import Browser
@testable import Core
@testable import Scenario
@testable import SupervisorTesting

extension Processes {
    @Suite struct Tabs {
        @Test func restoredTabsStayUnrealizedUntilShown() throws {
            let saved = Session.generated(tabs: 10_000, pages: ContentProvider().pages, seed: 3).tabs
            nonisolated(unsafe) var realizedEvents: [UInt64] = []
            nonisolated(unsafe) var gettersBefore: (String?, Bool, Bool)?
            nonisolated(unsafe) var decided = false
            let (simulation, events) = try runTabs(saved, content: ContentProvider()) { simulation, tab, event in
                switch (tab.id, event) {
                case (_, .realized): realizedEvents.append(tab.id)
                case (1, .finished):
                    let second = simulation.browser.tabs[1]
                    gettersBefore = (second.url, second.realized, second.canGoBack)
                    // A decider registered before the tab has a worker decides its navigations once it has one.
                    second.decider = { _, _, url in url.hasSuffix("blocked.html") ? .cancel : nil }
                    simulation.browser.show(second)
                case (2, .finished) where !decided:
                    decided = true
                    simulation.browser.navigate(tab, to: ContentProvider.origin + "blocked.html")
                    simulation.loop.soon { simulation.endBrowsing() }
                default: break
                }
            }
            let second = saved[1]
            #expect(gettersBefore?.0 == second.history.current?.url)
            #expect(gettersBefore?.1 == false)
            #expect(gettersBefore?.2 == second.history.canGoBack)
            #expect(realizedEvents == [1, 2])
            #expect(events.named("spawn").count == 2)
            #expect(simulation.browser.tabs.filter(\.realized).map(\.id) == [1, 2])
            #expect(simulation.browser.tabs[1].visible && !simulation.browser.tabs[0].visible)
            let refusal = events.named("navigation-decision").first { $0.string("url")?.hasSuffix("blocked.html") == true }
            #expect(refusal?.string("decision") == "cancel" && refusal?.string("reason") == "the tab's decider")
            #expect(!events.named("fetch").contains { $0.string("url")?.hasSuffix("blocked.html") == true })
        }

        @Test func backForwardListHasBrowserSemanticsOnBothSides() throws {
            let pages = ["a", "b", "c", "d"].map { ($0 + ".html", page($0.uppercased())) }
            nonisolated(unsafe) var step = 0
            nonisolated(unsafe) var reported: (Int, [String])?
            let (simulation, _) = try runTabs([savedTab(1, [local + "a.html"], visible: true)], content: ContentProvider(pages: pages)) {
                simulation, tab, event in
                switch event {
                case .finished:
                    step += 1
                    switch step {
                    case 1: simulation.browser.navigate(tab, to: local + "b.html")
                    case 2: simulation.browser.navigate(tab, to: local + "c.html")
                    case 3: simulation.browser.goBack(tab)
                    case 4: simulation.browser.goBack(tab)
                    case 5: simulation.browser.navigate(tab, to: local + "d.html")
                    default: simulation.browser.queryWorkerHistory(tab)
                    }
                case .workerHistory(let index, let urls):
                    reported = (index, urls)
                    simulation.endBrowsing()
                default: break
                }
            }
            let tab = simulation.browser.tabs[0]
            #expect(tab.history.entries.map(\.url) == [local + "a.html", local + "d.html"])
            #expect(tab.history.index == 1)
            #expect(tab.title == "D")
            #expect(reported?.0 == 1)
            #expect(reported?.1 == [local + "a.html", local + "d.html"])
        }

        @Test func aNewWorkerIsGivenTheTabsHistory() throws {
            let urls = ["a", "b", "c"].map { local + $0 + ".html" }
            let pages = ["a", "b", "c"].map { ($0 + ".html", page($0.uppercased())) }
            nonisolated(unsafe) var killed: Int32?
            nonisolated(unsafe) var reported: (Int, [String])?
            let (simulation, events) = try runTabs([savedTab(1, urls, index: 1, visible: true)], content: ContentProvider(pages: pages)) {
                simulation, tab, event in
                switch event {
                case .finished where killed == nil:
                    killed = tab.load?.view?.worker?.pid
                    killFromOutside(killed!)
                case .finished:
                    simulation.browser.queryWorkerHistory(tab)
                case .workerHistory(let index, let urls):
                    reported = (index, urls)
                    simulation.endBrowsing()
                default: break
                }
            }
            #expect(events.named("death").contains { $0.pid == killed })
            #expect(events.named("fetch").filter { $0.string("kind") == "document" }.map { $0.string("url") } == [urls[1], urls[1]])
            #expect(reported?.0 == 1)
            #expect(reported?.1 == urls)
            #expect(simulation.browser.tabs[0].history.entries.map(\.url) == urls)
        }
    }
}

extension Processes.Tabs {
    @Test func failuresBecomeErrorPagesThatStandInHistory() throws {
        let folder = try TemporaryFolder([
            "a.html": page("A"), "late.html": page("Late", fault: "fail; when=committed"),
        ])
        nonisolated(unsafe) var step = 0
        nonisolated(unsafe) var lists: [[String]] = []
        let (simulation, events) = try runTabs([savedTab(1, [local + "a.html"], visible: true)], content: try folder.provider) {
            simulation, tab, event in
            guard case .finished = event else { return }
            step += 1
            lists.append(tab.history.entries.map(\.url))
            switch step {
            case 1: simulation.browser.navigate(tab, to: local + "missing.html")
            case 2: simulation.browser.reload(tab)
            case 3:
                _ = FileManager.default.createFile(atPath: folder.path + "/missing.html", contents: Data(page("Found").utf8))
                simulation.browser.reload(tab)
            case 4: simulation.browser.navigate(tab, to: local + "late.html")
            default: simulation.endBrowsing()
            }
        }
        let key = simulation.browser.launchKey
        let missingError = InternalURL.errorPage(for: local + "missing.html", code: 404, key: key)
        // A provisional failure: history unchanged, then the error page stands in for the URL that failed.
        #expect(lists[1] == [local + "a.html", missingError])
        // Reloading the error page retries the original in place: history does not grow.
        #expect(lists[2] == [local + "a.html", missingError])
        #expect(lists[3] == [local + "a.html", local + "missing.html"])
        #expect(simulation.browser.tabs[0].title == "Cannot open page")
        // A failure after commit: the committed entry becomes the error page.
        #expect(lists[4] == [local + "a.html", local + "missing.html", InternalURL.errorPage(for: local + "late.html", code: 200, key: key)])
        let kinds = events.named("fail").compactMap { $0.string("kind") }
        #expect(kinds == ["provisional", "provisional", "committed"])
        #expect(events.named("error-page").count == 3)
    }

    @Test func navigationsAreDecidedByHostFrameAndTypeAndInternalURLsNeedTheKey() throws {
        nonisolated(unsafe) var key = ""
        let navigations = [
            "type=link; url=https://elsewhere.example/", "type=redirect; url=https://elsewhere.example/r",
            "type=link; url=internal://local/errorpage?url=x&code=1", "type=form; url=internal://local/errorpage?url=x&code=1&uuidkey=00000000-0000-4000-8000-000000000000",
            "type=link; frame=sub; url=https://ads.example/", "type=link; url=https://friend.example/",
        ].map { "<meta name=\"x-navigate\" content=\"\($0)\">" }.joined()
        let pages = [
            ("a.html", "<title>A</title>" + navigations + "<iframe src=\"https://frames.example/x\"><iframe src=\"internal://local/errorpage?url=y\">"),
        ]
        nonisolated(unsafe) var finishes = 0
        let (simulation, events) = try runTabs(
            [savedTab(1, [local + "a.html"], visible: true)], content: ContentProvider(pages: pages),
            configure: { $0.navigation.allowedHosts.insert("friend.example") }
        ) { simulation, tab, event in
            key = simulation.browser.launchKey.value
            if case .finished = event { finishes += 1 }
            if case .failed = event, finishes == 1 { simulation.loop.soon { simulation.endBrowsing() } }
        }
        let decisions = events.named("navigation-decision").map { ($0.string("url") ?? "", $0.string("frame") ?? "", $0.string("decision") ?? "", $0.string("reason") ?? "") }
        func decision(_ url: String, frame: String = "main") -> (String, String)? {
            decisions.first { $0.0 == url && $0.1 == frame }.map { ($0.2, $0.3) }
        }
        #expect(decision("https://elsewhere.example/")?.0 == "open-externally")
        #expect(decision("https://elsewhere.example/r")?.0 == "open-externally")
        #expect(decision("internal://local/errorpage?url=x&code=1")?.1 == "internal URL without a key")
        #expect(decision("internal://local/errorpage?url=x&code=1&uuidkey=00000000-0000-4000-8000-000000000000")?.1 == "internal URL with a wrong key")
        #expect(decision("https://ads.example/", frame: "sub")?.0 == "allow")
        #expect(decision("https://frames.example/x", frame: "sub")?.0 == "allow")
        #expect(decision("internal://local/errorpage?url=y", frame: "sub")?.0 == "cancel")
        #expect(decision("https://friend.example/")?.0 == "allow")
        #expect(events.named("open-externally").count == 2)
        // Only the allowed main-frame link was loaded; the refused ones never reached history.
        #expect(simulation.browser.tabs[0].history.entries.map(\.url).allSatisfy { !$0.contains("elsewhere") && !$0.hasPrefix("internal:") || $0.contains(key) })
        #expect(events.named("fetch").contains { $0.string("url") == "https://friend.example/" })
    }
}

extension Processes.Tabs {
    /// Documents bigger than a frame arrive in pieces, and a page is finished only once its images have come,
    /// all over the channel.
    @Test func documentsAndSubresourcesComeOverTheChannel() throws {
        let filler = String(repeating: "<p>filler</p>", count: 3 << 20 / 13)
        let folder = try TemporaryFolder([
            "big.html": "<title>Big</title><img src=\"app-image://photo\">" + filler,
        ])
        try FileManager.default.createDirectory(atPath: folder.path + "/images", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: folder.path + "/images/photo", contents: Data(repeating: 7, count: 70_000))
        // 3 MB in pieces on a loaded machine may take more than the tests' one second to show, and more than the
        // policy's 3 s watchdog and hang timeout (CI once saw the page fetched twice, after a recovery): it must
        // show, once.
        let (summary, events) = try simulate({
            $0.loads = 1
            $0.blankTimeoutNanoseconds = 30_000_000_000
            $0.hangTimeoutNanoseconds = 30_000_000_000
            $0.supervisor.watchdogNanoseconds = 30_000_000_000
        }, content: try folder.provider)
        #expect(summary.rendered == 1)
        let fetches = events.named("fetch")
        #expect(fetches.first?.int("bytes") ?? 0 > maxFrameSize)
        #expect(fetches.map { $0.string("url") } == [ContentProvider.origin + "big.html", "app-image://photo"])
        #expect(fetches.last?.int("status") == 200)
        // The image was answered before the page said it had finished.
        let imageAt = try #require(events.firstIndex { $0.name == "fetch" && $0.string("url") == "app-image://photo" })
        let renderAt = try #require(events.firstIndex { $0.name == "render" })
        #expect(imageAt < renderAt)
    }
}

extension Processes.Tabs {
    /// Going back to a page that now fails puts the error page in that entry, on both sides alike.
    @Test func aFailedBackNavigationLeavesTheErrorPageInItsEntryOnBothSides() throws {
        let folder = try TemporaryFolder(["b.html": page("B")])
        nonisolated(unsafe) var step = 0
        nonisolated(unsafe) var reported: (Int, [String])?
        let urls = [local + "gone.html", local + "b.html"]
        let (simulation, _) = try runTabs([savedTab(1, urls, visible: true)], content: try folder.provider) { simulation, tab, event in
            switch event {
            case .finished:
                step += 1
                if step == 1 { simulation.browser.goBack(tab) } else { simulation.browser.queryWorkerHistory(tab) }
            case .workerHistory(let index, let urls):
                reported = (index, urls)
                simulation.endBrowsing()
            default: break
            }
        }
        let tab = simulation.browser.tabs[0]
        let expected = [InternalURL.errorPage(for: urls[0], code: 404, key: simulation.browser.launchKey), urls[1]]
        #expect(tab.history.entries.map(\.url) == expected && tab.history.index == 0)
        #expect(reported?.0 == 0 && reported?.1 == expected)
    }
}
