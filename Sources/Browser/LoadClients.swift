import Core
import WireProtocol

/// A realized tab's load, as the supervisor's client: its worker gets the tab's whole history, its fetches go
/// through the tab's navigation policy, and what its pages do changes the tab.
final class TabClient: LoadClient {
    unowned let browser: Browser
    unowned let tab: Tab

    init(browser: Browser, tab: Tab) {
        self.browser = browser
        self.tab = tab
    }

    func start(_ worker: Worker, in view: View) -> String? { browser.restore(tab, into: worker) }

    func serve(_ url: String, _ kind: ResourceKind, for worker: Worker) -> SchemeResponse {
        browser.serve(url, kind, for: tab)
    }

    func received(_ message: FromWorker, from worker: Worker, in view: View?) -> Bool {
        switch message {
        case .didCommit(let url):
            browser.committed(tab, url: url)
        case .navigationAction(let type, let mainFrame, let url):
            browser.navigationRequested(tab, type: type, mainFrame: mainFrame, url: url, by: worker)
        case .history(let index, _, let urls):
            tab.notify(.workerHistory(index: Int(index), urls: urls))
        default:
            return false
        }
        return true
    }

    func rendered(_ view: View, by worker: Worker, title: String) { browser.finished(tab, by: worker, title: title) }

    func failed(_ view: View, by worker: Worker, provisional: Bool, error: String) {
        browser.failed(tab, by: worker, provisional: provisional, error: error)
    }

    func visible(_ view: View, first: Bool) { browser.supervisor.logVisible(view, first: first) }

    // A tab stays open whatever happened to its worker: the navigation under way failed, and the next one starts a
    // new worker.
    func ended(_ view: View, error: String?) { browser.navigationEnded(tab, error: error, blank: error == nil) }
}

/// The editor document's load: its worker gets the saved document and every input not acknowledged.
final class EditorClient: LoadClient {
    weak var browser: Browser?

    func start(_ worker: Worker, in view: View) -> String? {
        browser?.supervisor.send(.load(url: ContentProvider.editorURL, replace: false), to: worker)
        return ContentProvider.editorURL
    }

    func serve(_ url: String, _ kind: ResourceKind, for worker: Worker) -> SchemeResponse {
        browser?.serve(url, kind, for: nil) ?? SchemeResponse(status: 410, mime: "text/plain", body: [])
    }

    func received(_ message: FromWorker, from worker: Worker, in view: View?) -> Bool {
        guard let browser else { return false }
        switch message {
        case .inputApplied(let seq, let digest): return browser.inputApplied(seq: seq, digest: digest, by: worker)
        case .document(_, let text): return browser.documentReceived(text, from: worker)
        default: return false
        }
    }

    var longestDocument: Int { browser?.editor?.longestPlausibleDocument ?? pieceBytes }

    func rendered(_ view: View, by worker: Worker, title: String) {}

    func failed(_ view: View, by worker: Worker, provisional: Bool, error: String) { browser?.endEditor() }

    func visible(_ view: View, first: Bool) {
        browser?.supervisor.logVisible(view, first: first, editor: true)
        browser?.editorShown(view)
    }

    func ended(_ view: View, error: String?) { browser?.endEditor() }
}
