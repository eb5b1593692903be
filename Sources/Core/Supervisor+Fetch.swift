import WireProtocol

/// Fetches: the scheme handler's side of the channel. Each is counted against what the worker may ask, answered by
/// the load's client, and sent in frame-sized pieces.
extension Supervisor {
    /// Answers a fetch: a document for each navigation sent, then up to `maxResourcesPerPage` sub-resources of it.
    func fetch(_ url: String, _ kind: ResourceKind, for worker: Worker) {
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
        guard let client = worker.client else {
            return unsolicited(.fetch(url: url, kind: kind), from: worker)
        }
        let response = client.serve(url, kind, for: worker)
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
            worker.uncommitted = url
        }
        log.emit(
            .fetch(url: url, kind: kind, status: Int(response.status), bytes: body.count), view: worker.view?.id,
            pid: worker.pid)
    }

    static let maxResourcesPerPage = 64
    /// The most of a reply one frame carries.
    static let replyChunk = 256 << 10
}
