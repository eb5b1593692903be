import Foundation
import Glibc
import Testing

@testable import Browser
@testable import SupervisorTesting

/// A kept copy of a page is served only while the file is unchanged: an edited page is read again.
@Suite struct ContentRevalidation {
    func fetch(_ content: ContentProvider, _ name: String) -> String {
        String(decoding: content.fetch("app://local/" + name).body, as: UTF8.self)
    }

    /// Rewritten in place at the same size (the same inode, so only its times tell), replaced by a rename (a new
    /// inode), and grown: each edit is served at once, and an unchanged file still comes from the cache.
    @Test func anEditedPageIsServedAsEdited() throws {
        let folder = try TemporaryFolder(["page.html": page("First")])
        let content = try folder.provider
        let path = folder.path + "/page.html"
        #expect(fetch(content, "page.html") == page("First"))
        #expect(content.cacheUsage.entries == 1)

        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.write(Data(page("Other").utf8))
        try handle.close()
        // An editor writes later than the read it follows; say so, whatever the clock's granularity.
        var times = [timespec(tv_sec: time(nil) + 5, tv_nsec: 0), timespec(tv_sec: time(nil) + 5, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(fetch(content, "page.html") == page("Other"))

        try page("Renamed").write(toFile: folder.path + "/new.html", atomically: false, encoding: .utf8)
        #expect(rename(folder.path + "/new.html", path) == 0)
        #expect(fetch(content, "page.html") == page("Renamed"))

        let handle2 = try #require(FileHandle(forWritingAtPath: path))
        handle2.seekToEndOfFile()
        handle2.write(Data("<p>more</p>".utf8))
        try handle2.close()
        #expect(fetch(content, "page.html") == page("Renamed") + "<p>more</p>")
        #expect(content.cacheUsage.entries == 1)
        // Unchanged since: served from the cache without opening the file for reading.
        var again = ""
        #expect(try !wasOpened(path) { again = fetch(content, "page.html") })
        #expect(again == page("Renamed") + "<p>more</p>")
    }
}
