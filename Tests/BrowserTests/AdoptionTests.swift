import Testing
import WireProtocol

@testable import Browser
import Core

/// Where a worker taken back from the holder is adopted (issue 34): only where what it says matches what the
/// session saved; a worker that lies is refused.
@Suite struct AdoptionPlacement {
    static let tabs = [
        SavedTab(id: 1, history: list(["app://local/a", "app://local/b"], at: 1), visible: true),
        SavedTab(id: 2, history: list(["app://local/c"], at: 0), visible: false),
    ]

    static func list(_ urls: [String], at index: Int) -> BackForwardList {
        BackForwardList(entries: urls.map { HistoryEntry(url: $0) }, index: index)
    }

    static let honest = WorkerClaim(
        url: "app://local/b", finished: true, historyIndex: 1, history: ["app://local/a", "app://local/b"], inputSeq: 0,
        digest: documentDigestBasis)

    @Test func aWorkerThatSaysWhatTheSessionSavedIsAdoptedIntoItsTab() {
        #expect(Adoption.place(Self.honest, among: Self.tabs, isTaken: { _ in false }) == .tab(id: 1))
    }

    static func honest(but change: (inout WorkerClaim) -> Void) -> WorkerClaim {
        var claim = honest
        change(&claim)
        return claim
    }

    /// Each lie, or a state the session never saved, is refused with its reason.
    @Test(arguments: [
        (honest { $0.inputSeq = 3 }, "it claims typed input, which no tab's page has"),
        (honest { ($0.history, $0.historyIndex, $0.url) = ([], -1, "") }, "it shows no page"),
        (honest { $0.digest = 7 }, "it claims typed input, which no tab's page has"),
        (honest { $0.url = "app://local/a" }, "its page is not the current entry of its own list"),
        (honest { $0.historyIndex = 5 }, "its page is not the current entry of its own list"),
        (honest { $0.finished = false }, "its page had not finished loading"),
        (honest { $0.history[0] = "https://evil.example/" }, "no saved tab has its list"),
        (honest { ($0.historyIndex, $0.url) = (0, "app://local/a") }, "no saved tab has its list"),
    ])
    func aClaimTheSessionDoesNotBearOutIsRefused(claim: WorkerClaim, reason: String) {
        #expect(Adoption.place(claim, among: Self.tabs, isTaken: { _ in false }) == .refused(reason))
    }

    /// Two workers claiming one tab: the second is refused.
    @Test func aTabIsAdoptedIntoOnce() {
        let second = Adoption.place(Self.honest, among: Self.tabs, isTaken: { $0.id == 1 })
        #expect(second == .refused("every saved tab with its list has a worker already"))
    }
}
