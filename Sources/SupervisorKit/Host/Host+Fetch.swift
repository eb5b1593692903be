import LogAnalysis
import Text
import WireProtocol

/// Fetches: the scheme handler's side of the channel. Each is counted against what the worker may ask, answered by
/// the supervisor's own pages or the content provider, and sent in frame-sized pieces.
extension Host {
    /// Answers a fetch: a document for each navigation sent, then up to `maxResourcesPerPage` sub-resources of it.
    /// A reply bigger than a frame goes in pieces.
    func fetch(_ url: String, _ kind: ResourceKind, for worker: WorkerProcess) {
        if kind == .document {
            guard worker.owed.fetches > 0 else { return unsolicited(.fetch(url: url, kind: kind), from: worker) }
            worker.owed.fetches -= 1
            worker.owed.results += 1
            worker.owed.resources = Self.maxResourcesPerPage
        } else {
            guard worker.owed.resources > 0 else { return unsolicited(.fetch(url: url, kind: kind), from: worker) }
            worker.owed.resources -= 1
        }
        worker.replyBytes = 0
        let response = serve(url, kind, for: worker.view?.load.tab)
        let body = response.body
        let first = min(body.count, Self.replyChunk)
        send(.fetchReply(status: response.status, mime: response.mime, length: UInt32(body.count), body: Array(body[..<first])), to: worker)
        var offset = first
        while offset < body.count, worker.channelOpen {
            let end = min(offset + Self.replyChunk, body.count)
            send(.fetchData(body: Array(body[offset..<end])), to: worker)
            offset = end
        }
        if kind == .document {
            worker.lastDocument = (url, response.status, response.status == 200 ? nil : String(decoding: body, as: UTF8.self))
        }
        log.emit(
            .fetch(url: url, kind: "\(kind)", status: Int(response.status), bytes: body.count), view: worker.view?.id,
            pid: worker.pid)
    }

    static let maxResourcesPerPage = 64
    /// The most of a reply one frame carries.
    static let replyChunk = 256 << 10

    /// What the scheme handler answers for `url`: the supervisor's own pages, checked against the launch key,
    /// sub-frames checked against the navigation policy, and the content provider for the rest.
    func serve(_ url: String, _ kind: ResourceKind, for tab: Tab?) -> ContentProvider.Response {
        if kind == .subframe, let tab, decide(tab, .other, .sub, url) != .allow {
            return ContentProvider.Response(status: 403, mime: "text/plain", body: Array("refused by the navigation policy".utf8))
        }
        if let parsed = WebURL(url), let check = InternalURL.check(parsed, key: launchKey) {
            if case .errorPage(let original, let code) = check {
                return ContentProvider.Response(status: 200, mime: "text/html", body: InternalURL.errorPageDocument(url: original, code: code))
            }
            log.emit(.internalRefused(url: url, reason: "\(check)"))
            return ContentProvider.Response(status: 403, mime: "text/plain", body: Array("forbidden: \(check)".utf8))
        }
        return content.fetch(url)
    }
}
