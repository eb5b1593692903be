// libFuzzer harness for the content scheme's URL and path resolver (Sources/Browser/Content: `WebURL`,
// `ContentRequest`, `ContentRoot`; Sources/System's `openBeneath` and its fallback `walkBeneath`), built and run by
// `scripts/fuzz`. It serves a content root made once in a temporary directory, which holds symlinks that stay
// inside it, symlinks out of it (relative, absolute, to a directory), a FIFO, and beside it a secret file. Each input
// is fetched as a URL, and as the path of `app://local/`. For every fetch:
//   1. A path that decodes has no NUL byte, no leading `/` and no `..` component.
//   2. A document or image served (200) is the regular file its path names, resolved by `realpath`, and that lies
//      beneath the root: its bytes are that file's, never the secret's.
//   3. The fallback resolver (kernels without openat2) follows no symlink and never leaves the root: what it opens
//      lies beneath the root, and is what the kernel's resolver opens too.
@testable import Browser
import FuzzDriver
import Glibc
@testable import System

func make(_ path: String, _ text: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0, text.utf8CString.withUnsafeBufferPointer({ write(fd, $0.baseAddress, $0.count - 1) }) == text.utf8.count
    else { violated("cannot write \(path)") }
    close(fd)
}

func real(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}

/// The content root, with every file in it holding `inside:` and its name, in the empty directory FUZZ_SCRATCH names
/// (the script makes it), else in a new one under /tmp.
enum World {
    nonisolated(unsafe) static let root: (path: String, fd: Int32, provider: ContentProvider) = made()
}

func made() -> (path: String, fd: Int32, provider: ContentProvider) {
    var template = Array("/tmp/fuzz-content-XXXXXX".utf8CString)
    guard let top = getenv("FUZZ_SCRATCH").map({ String(cString: $0) }) ?? mkdtemp(&template).map({ String(cString: $0) })
    else { violated("mkdtemp failed: errno \(errno)") }
    let root = top + "/root"
    for directory in [root, root + "/a", root + "/a/c", root + "/images", top + "/outside"] { mkdir(directory, 0o755) }
    make(top + "/secret", "SECRET")
    make(top + "/outside/page.html", "SECRET page")
    for name in ["index.html", "a/b.html", "a/c/d.txt", "images/cat", "images/dog.png", ".hidden", "%2e%2e", "sp ace.html"] {
        make(root + "/" + name, "inside:" + name)
    }
    let links = [
        ("link.html", "a/b.html"), ("a/up.html", "../index.html"), ("dir", "a"), ("images/alias", "cat"),
        ("escape", "../secret"), ("a/deep", "../../secret"), ("absolute", top + "/secret"), ("outdir", "../outside"),
        ("parent", ".."), ("self", "."), ("loop", "loop"), ("dangling", "nothing"), ("proc", "/proc/self/environ"),
    ]
    for (name, target) in links { symlink(target, root + "/" + name) }
    mkfifo(root + "/fifo", 0o644)
    let provider: ContentProvider
    do throws(ContentError) { provider = try ContentProvider(root: root) } catch { violated("\(error)") }
    // Held for the harness's whole life.
    let fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { violated("cannot open \(root): errno \(errno)") }
    guard let resolved = real(root) else { violated("cannot resolve \(root)") }
    return (resolved, fd, provider)
}

func fetch(_ url: String) {
    let (rootPath, rootFD, provider) = World.root
    let request = try? ContentRequest(url)
    let path: [UInt8]?
    switch request {
    case .document(let decoded)?: path = decoded
    case .image(let id)?: path = Array("images/".utf8) + id
    case nil: path = nil
    }
    if let path {
        guard !path.contains(0), path.first != UInt8(ascii: "/"),
            !path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).contains(where: { $0.elementsEqual("..".utf8) })
        else { violated("\(url) decodes to \(path), which the request should refuse") }
    }
    let response = provider.fetch(url)
    if response.status == 200, path != Array("editor".utf8) {
        guard let path else { violated("\(url) was served, but does not decode") }
        let name = String(decoding: path, as: UTF8.self)
        guard let file = real(rootPath + "/" + name), file.hasPrefix(rootPath + "/") else {
            violated("\(url) was served from \(String(describing: real(rootPath + "/" + name))), not beneath \(rootPath)")
        }
        guard response.body.starts(with: Array("inside:".utf8)), response.body == Array("inside:\(file.dropFirst(rootPath.count + 1))".utf8)
        else { violated("\(url) served \(String(decoding: response.body.prefix(40), as: UTF8.self)), not \(file)") }
    }
    guard case .document(let document)? = request else { return }
    let walked: FileDescriptor
    do throws(SystemError) { walked = try Sys.walkBeneath(rootFD, document) } catch { return }
    let link = "/proc/self/fd/\(walked.rawValue)"
    guard let opened = real(link), opened == rootPath || opened.hasPrefix(rootPath + "/") else {
        violated("walkBeneath opened \(String(describing: real(link))) for \(url), not beneath \(rootPath)")
    }
    guard real(rootPath + "/" + String(decoding: document, as: UTF8.self)) == opened else {
        violated("walkBeneath opened \(opened) for \(url), which realpath resolves otherwise (a symlink followed?)")
    }
    do throws(SystemError) {
        let kernel = try Sys.openBeneath(rootFD, document)
        guard real("/proc/self/fd/\(kernel.rawValue)") == opened else { violated("the resolvers disagree on \(url)") }
    } catch {
        violated("walkBeneath opened \(opened) for \(url), which openBeneath refuses: \(error)")
    }
}

func seeds() -> [(name: String, bytes: [UInt8])] {
    let urls = [
        "app://local/index.html", "app://local/a/b.html?x=1#y", "app://local/link.html", "app://local/a/up.html",
        "app://local/dir/b.html", "app://local/escape", "app://local/a/deep", "app://local/absolute",
        "app://local/outdir/page.html", "app://local/parent/secret", "app://local/a/%2e%2e/index.html",
        "app://local/%252e%252e", "app://local/sp%20ace.html", "app://local/fifo", "app://local/proc", "app-image://cat",
        "app-image://alias", "app-image://dog.png", "index.html", "a/./c//d.txt",
    ]
    return urls.enumerated().map { ("url-\($0.offset)", Array($0.element.utf8)) }
}

runFuzzer(seeds: seeds) { input in
    let text = String(decoding: input, as: UTF8.self)
    fetch(text)
    fetch(ContentProvider.origin + text)
}
