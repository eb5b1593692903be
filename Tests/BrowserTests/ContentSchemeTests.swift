import Dispatch
import Foundation
import Glibc
import ProcFS
import Testing

@testable import LogAnalysis
@testable import Browser
@testable import System
@testable import SupervisorTesting

/// The scheme handler's answers: each refusal checked by status and by its reason, so that a test fails when the
/// check it names is gone even if another layer would still refuse.
@Suite(.timeLimit(.minutes(1)))
struct ContentScheme {
    let folder: TemporaryFolder
    let content: ContentProvider

    init() throws {
        folder = try TemporaryFolder(["index.html": page("Index")])
        content = try folder.provider
    }

    func fetch(_ url: String) -> (status: UInt16, reason: String) {
        let response = content.fetch(url)
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    // MARK: - Decided on the decoded path

    @Test(arguments: [
        ("app://local/../x", "'..'"), ("app://local/a/../../x", "'..'"), ("app://local/%2e%2e/x", "'..'"),
        ("app://local/%2E%2E%2Fx", "'..'"), ("app://local/.%2e/x", "'..'"), ("app://local//etc/passwd", "absolute"),
        ("app://local/%2Fetc/passwd", "absolute"), ("app://local/a\u{0}b", "NUL"), ("app://local/a%00b", "NUL"),
    ])
    func aPathThatCouldEscapeIsForbiddenByItsDecodedForm(url: String, reason: String) {
        let (status, text) = fetch(url)
        #expect(status == 403, "\(url): \(text)")
        #expect(text.contains(reason), "\(url): \(text)")
    }

    @Test(arguments: [
        "app://local/%zz", "app://local/a%2", "app://local/a%", "https://example.com/", "app://other/x", "index.html",
        "app://a.b.test/index.html", "app://.test/index.html", "app://evil.test.com/index.html",
    ])
    func aURLItDoesNotServeOrCannotDecodeIsABadRequest(url: String) {
        #expect(fetch(url).status == 400, "\(url)")
    }

    /// A workload's sites (`--sites`) are names under `.test`: the same root, and the same checks on the path.
    @Test func aTestSiteServesTheSameRootUnderTheSameChecks() {
        #expect(fetch("app://site2.test/index.html").status == 200)
        #expect(fetch("app://site2.test/index.html").reason == fetch("app://local/index.html").reason)
        #expect(fetch("app://site2.test/../x").status == 403)
    }

    @Test func aDoubleEncodedDotDotIsALiteralName() throws {
        #expect(fetch("app://local/%252e%252e/x").status == 404)
        try FileManager.default.createDirectory(atPath: folder.path + "/%2e%2e", withIntermediateDirectories: false)
        try "literal".write(toFile: folder.path + "/%2e%2e/x", atomically: false, encoding: .utf8)
        #expect(fetch("app://local/%252e%252e/x") == (200, "literal"))
    }

    @Test func queryAndFragmentAreIgnoredButAnEncodedQuestionMarkIsPartOfTheName() {
        #expect(fetch("app://local/index.html?x=1#top").status == 200)
        #expect(fetch("app://local/index.html%3Fx=1").status == 404)
    }

    // MARK: - Decided by the kernel beneath the root

    @Test func aSymlinkToAFileOutsideTheRootIsForbidden() throws {
        let outside = try TemporaryFolder(["secret.txt": "SECRET"])
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/absolute", withDestinationPath: outside.path + "/secret.txt")
        let relative = "../" + URL(fileURLWithPath: outside.path).lastPathComponent + "/secret.txt"
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/relative", withDestinationPath: relative)
        for name in ["absolute", "relative"] {
            let (status, text) = fetch("app://local/" + name)
            #expect(status == 403 && text.contains("leads out of the content root"), "\(name): \(text)")
            #expect(!text.contains("SECRET"))
        }
    }

    @Test func aFileThroughASymlinkToADirectoryOutsideIsForbidden() throws {
        let outside = try TemporaryFolder(["secret.txt": "SECRET"])
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/out", withDestinationPath: outside.path)
        #expect(fetch("app://local/out/secret.txt").status == 403)
    }

    /// A hard link leads nowhere, so the kernel's resolution beneath the root cannot see that the file it names
    /// also lives outside: a file with a second name is refused, whichever name is inside.
    @Test func aHardLinkToAFileOutsideTheRootIsForbidden() throws {
        let outside = try TemporaryFolder(["secret.txt": "SECRET"])
        try #require(link(outside.path + "/secret.txt", folder.path + "/linked.txt") == 0)
        let (status, text) = fetch("app://local/linked.txt")
        #expect(status == 403 && text.contains("linked.txt has 2 hard links"), "\(text)")
        #expect(!text.contains("SECRET"))
        // Its other name gone, it is a file of the root like any other.
        try FileManager.default.removeItem(atPath: outside.path + "/secret.txt")
        #expect(fetch("app://local/linked.txt") == (200, "SECRET"))
    }

    @Test func aSymlinkThatStaysInsideIsFollowed() throws {
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/alias.html", withDestinationPath: "index.html")
        #expect(fetch("app://local/alias.html") == (200, page("Index")))
    }

    @Test func aFIFOIsRefusedPromptlyAndNeverOpened() throws {
        let fifo = folder.path + "/pipe"
        try #require(mkfifo(fifo, 0o600) == 0)
        var response: ContentProvider.Response?
        let opened = try wasOpened(fifo) { response = fetchPromptly(content, "app://local/pipe", unblocking: fifo) }
        let reason = String(decoding: response?.body ?? [], as: UTF8.self)
        #expect(response?.status == 403 && reason.contains("not a regular file"), "\(reason)")
        #expect(!opened)
    }

    /// Needs CAP_MKNOD (root); skipped elsewhere.
    @Test(.enabled(if: canMakeDeviceNodes))
    func aCharacterDeviceIsRefusedAndNeverOpened() throws {
        let device = folder.path + "/null"
        try #require(mknod(device, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0)
        var status: UInt16 = 0
        #expect(try !wasOpened(device) { status = fetch("app://local/null").status })
        #expect(status == 403)
    }

    @Test func aDirectoryIsRefusedAndNeverOpened() throws {
        try FileManager.default.createDirectory(atPath: folder.path + "/sub", withIntermediateDirectories: false)
        var results: [UInt16] = []
        #expect(try !wasOpened(folder.path + "/sub") { results = [fetch("app://local/sub").status, fetch("app://local/sub/").status] })
        #expect(results == [403, 403])
        #expect(fetch("app://local/").status == 403)
    }

    @Test func aMissingFileIsNotFound() {
        #expect(fetch("app://local/missing.html") == (404, "not found: missing.html"))
        #expect(fetch("app://local/index.html/x").status == 404)
    }

    // MARK: - Sizes and the cache

    @Test func aFileOverTheLimitIsRefusedByItsSize() throws {
        let path = folder.path + "/huge.bin"
        let fd = open(path, O_CREAT | O_WRONLY, 0o644)
        try #require(fd >= 0 && ftruncate(fd, 17 << 20) == 0)
        close(fd)
        let (status, text) = fetch("app://local/huge.bin")
        #expect(status == 413)
        #expect(text.contains("\(17 << 20) bytes") && text.contains("\(ContentProvider.maxDocumentSize)"), "\(text)")
    }

    @Test func aOneMegabyteFileArrivesWholeAndUncached() throws {
        let bytes = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
        try Data(bytes).write(to: URL(fileURLWithPath: folder.path + "/big.bin"))
        #expect(content.fetch("app://local/big.bin") == .init(status: 200, mime: "application/octet-stream", body: bytes))
        #expect(content.cacheUsage.entries == 0)
    }

    @Test func theCacheStaysWithinItsBudgetOfBytesAndEntries() throws {
        let body = Data(repeating: 0x61, count: 510 << 10)
        for index in 0..<70 { try body.write(to: URL(fileURLWithPath: folder.path + "/b\(index).txt")) }
        for index in 0..<70 { #expect(fetch("app://local/b\(index).txt").status == 200) }
        #expect(content.cacheUsage.bytes <= DocumentCache.maxTotalBytes && content.cacheUsage.entries > 50)
        for index in 0..<(DocumentCache.maxEntries + 10) { try Data().write(to: URL(fileURLWithPath: folder.path + "/e\(index)")) }
        for index in 0..<(DocumentCache.maxEntries + 10) { #expect(fetch("app://local/e\(index)").status == 200) }
        #expect(content.cacheUsage.entries == DocumentCache.maxEntries)
        #expect(fetch("app://local/e5") == (200, ""))
    }

    @Test func noDescriptorIsLeftOpenWhateverTheAnswer() throws {
        try FileManager.default.createDirectory(atPath: folder.path + "/sub", withIntermediateDirectories: false)
        try #require(mkfifo(folder.path + "/pipe", 0o600) == 0)
        for name in ["index.html", "sub", "missing", "../x"] { _ = fetch("app://local/" + name) }
        _ = fetchPromptly(content, "app://local/pipe", unblocking: folder.path + "/pipe")
        #expect(descriptorTargets(under: folder.path) == [folder.path])
        var provider: ContentProvider? = try folder.provider
        #expect(provider?.fetch("app://local/index.html").status == 200)
        provider = nil
        #expect(descriptorTargets(under: folder.path) == [folder.path])
    }

    // MARK: - Images

    @Test func theBuiltInPagesImagesAreServedWithAnImageType() throws {
        let builtIn = ContentProvider()
        let logo = builtIn.fetch("app-image://logo")
        #expect(logo.status == 200 && logo.mime == "image/png" && logo.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(builtIn.fetch("app-image://pixel?v=2").mime == "image/gif")
        #expect(builtIn.fetch("app-image://Logo").status == 404)
        let html = BuiltInPages.all.map(\.html).joined()
        let referenced = html.split(separator: "\"").filter { $0.hasPrefix("app-image://") }
        #expect(referenced.count >= 2)
        for url in referenced { #expect(builtIn.fetch(String(url)).status == 200, "\(url)") }
    }

    @Test func anImageComesFromTheRootsImagesDirectory() throws {
        try FileManager.default.createDirectory(atPath: folder.path + "/images", withIntermediateDirectories: false)
        let png = ContentProvider().fetch("app-image://logo").body
        try Data(png).write(to: URL(fileURLWithPath: folder.path + "/images/Logo"))
        #expect(content.fetch("app-image://Logo") == .init(status: 200, mime: "image/png", body: png))
        #expect(fetch("app-image://logo").status == 404)
    }

    @Test(arguments: [
        ("app-image://../x", 403), ("app-image://%2e%2e", 403), ("app-image://.hidden", 403), ("app-image://lo%00go", 403),
        ("app-image://a/b", 400), ("app-image://lo%zzgo", 400), ("app-image://a%20b", 400), ("app-image://", 400),
    ] as [(String, UInt16)])
    func anImageIDIsOneSafeName(url: String, status: UInt16) {
        #expect(ContentProvider().fetch(url).status == status, "\(url)")
        #expect(fetch(url).status == status, "\(url)")
    }

    // MARK: - The system calls themselves

    @Test func bothResolversRefuseToLeaveTheRoot() throws {
        let outside = try TemporaryFolder(["secret.txt": "SECRET"])
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/out", withDestinationPath: outside.path + "/secret.txt")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/in", withDestinationPath: "index.html")
        let root = try Sys.openDirectoryPath(folder.path)
        func errno(_ resolve: (Int32, [UInt8]) throws(SystemError) -> FileDescriptor, _ path: String) -> Int32 {
            do throws(SystemError) {
                let file = try resolve(root.rawValue, Array(path.utf8))
                return (try? Sys.status(file.rawValue).isRegular) == true ? 0 : -1
            } catch { return error.errno }
        }
        for (path, kernel, walk) in [("index.html", 0, 0), ("in", 0, ELOOP), ("out", EXDEV, ELOOP), ("../x", EXDEV, EXDEV), ("/etc/passwd", EXDEV, EXDEV)] {
            #expect(errno(Sys.openBeneath, path) == kernel, "openat2 \(path)")
            #expect(errno(Sys.walkBeneath, path) == walk, "walk \(path)")
        }
    }
}

// MARK: - Helpers

/// Whether mknod works here, for the device-node test.
let canMakeDeviceNodes: Bool = {
    guard let folder = try? TemporaryFolder([:]) else { return false }
    return mknod(folder.path + "/probe", S_IFCHR | 0o600, dev_t(1 << 8 | 3)) == 0
}()

/// Whether anything opened `path` while `body` ran. An O_PATH open is not reported, so this sees exactly the opens
/// that could block on a FIFO or act on a device.
func wasOpened(_ path: String, during body: () throws -> Void) throws -> Bool {
    let watcher = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    try #require(watcher >= 0)
    defer { close(watcher) }
    try #require(inotify_add_watch(watcher, path, UInt32(IN_OPEN)) >= 0)
    try body()
    var events = [UInt8](repeating: 0, count: 4096)
    return read(watcher, &events, events.count) > 0
}

/// `content.fetch(url)` on its own thread, given two seconds. A fetch still running then is stuck opening the FIFO:
/// it is released by opening the FIFO for writing, and the test fails instead of hanging.
func fetchPromptly(_ content: ContentProvider, _ url: String, unblocking fifo: String) -> ContentProvider.Response? {
    final class Box: @unchecked Sendable {
        let content: ContentProvider
        var response: ContentProvider.Response?
        init(_ content: ContentProvider) { self.content = content }
    }
    let box = Box(content)
    let done = DispatchSemaphore(value: 0)
    Thread {
        box.response = box.content.fetch(url)
        done.signal()
    }.start()
    guard done.wait(timeout: .now() + 2) == .timedOut else { return box.response }
    Issue.record("fetching \(url) did not return within 2 s")
    let writer = open(fifo, O_WRONLY | O_NONBLOCK)
    if writer >= 0 { close(writer) }
    _ = done.wait(timeout: .now() + 2)
    return nil
}

/// Where this process's descriptors point, for those that point at or under `path`.
func descriptorTargets(under path: String) -> [String] {
    ProcFS.descriptors(of: .current).compactMap { fd in
        ProcFS.descriptorTarget(.current, fd).flatMap { $0 == path || $0.hasPrefix(path + "/") ? $0 : nil }
    }
}
