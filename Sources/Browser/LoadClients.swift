import Core
import WireProtocol

/// A realized tab's load, as the supervisor's client: its worker gets the tab's whole history, its fetches go
/// through the tab's navigation policy, and what its pages do changes the tab.
final class TabClient: LoadClient {
    weak var browser: Browser?
    weak var tab: Tab?

    init(browser: Browser, tab: Tab) {
        self.browser = browser
        self.tab = tab
    }

    func start(_ worker: Worker, in view: View) -> LoadStart {
        guard let browser, let tab else { return .nothing }
        return browser.history(of: tab)
    }

    func nothingToLoad(_ view: View) {
        guard let browser, let tab else { return }
        browser.restoredEmpty(tab)
    }

    /// Once the tab's view let the worker go, what it still fetches is plain content: the tab's policy is no
    /// longer asked.
    func serve(_ url: String, _ kind: ResourceKind, for worker: Worker) -> SchemeResponse {
        guard let browser else { return SchemeResponse.gone }
        return browser.serve(url, kind, for: worker.view == nil ? nil : tab)
    }

    var longestDocument: Int { browser?.longestDocument ?? pieceBytes }

    var navigationsPerPage: Int { Browser.maxNavigationsPerPage }

    func received(_ message: FromWorker, from worker: Worker, in view: View?) -> Bool {
        guard let browser, let tab else { return false }
        switch message {
        case .navigationAction(let type, let mainFrame, let url):
            browser.navigationRequested(tab, type: type, mainFrame: mainFrame, url: url, by: worker)
        case .history(let index, _, let urls):
            tab.notify(.workerHistory(index: Int(index), urls: urls))
        default:
            return false
        }
        return true
    }

    /// Only the tab's oldest navigation under way may commit, and only to the URL it was sent to.
    func committed(_ url: String, by worker: Worker, in view: View) -> Bool {
        guard let browser, let tab else { return false }
        return browser.committed(tab, url: url)
    }

    func reloading(_ worker: Worker, in view: View) { tab?.pending.append(.reload) }

    func rendered(_ view: View, by worker: Worker, title: String) {
        guard let tab else { return }
        browser?.finished(tab, by: worker, title: title)
    }

    func failed(_ view: View, by worker: Worker, provisional: Bool, error: String) {
        guard let tab else { return }
        browser?.failed(tab, by: worker, provisional: provisional, error: error)
    }

    func visible(_ view: View, first: Bool, at time: Int) {}

    // A tab stays open whatever happened to its worker: the navigation under way failed, and the next one starts a
    // new worker.
    func ended(_ view: View, error: String?) {
        guard let tab else { return }
        browser?.navigationEnded(tab, error: error, blank: error == nil)
    }
}

/// The editor document's load: its worker gets the saved document and every input not acknowledged.
final class EditorClient: LoadClient {
    weak var browser: Browser?

    func start(_ worker: Worker, in view: View) -> LoadStart { .load(ContentProvider.editorURL) }

    var isEditor: Bool { true }

    func serve(_ url: String, _ kind: ResourceKind, for worker: Worker) -> SchemeResponse {
        browser?.serve(url, kind, for: nil) ?? SchemeResponse.gone
    }

    func received(_ message: FromWorker, from worker: Worker, in view: View?) -> Bool {
        guard let browser else { return false }
        switch message {
        case .inputApplied(let seq, let digest): return browser.inputApplied(seq: seq, digest: digest, by: worker)
        case .document(_, let text): return browser.documentReceived(text, from: worker)
        default: return false
        }
    }

    var longestDocument: Int { browser?.longestDocument ?? pieceBytes }

    func committed(_ url: String, by worker: Worker, in view: View) -> Bool { url == ContentProvider.editorURL }

    func rendered(_ view: View, by worker: Worker, title: String) {}

    func failed(_ view: View, by worker: Worker, provisional: Bool, error: String) { browser?.endEditor() }

    func visible(_ view: View, first: Bool, at time: Int) {
        browser?.editorShown(view)
    }

    func ended(_ view: View, error: String?) { browser?.endEditor() }
}
