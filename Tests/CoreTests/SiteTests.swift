import Testing
import Vocabulary

/// Sites as process reuse keys them: scheme and registrable domain (issue 32, item 1).
@Suite struct Sites {
    @Test(arguments: [
        ("https://a.example.com/x", "https://example.com"),
        ("https://b.example.com:8443/y?q#f", "https://example.com"),
        ("http://example.com/", "http://example.com"),
        ("HTTPS://User@WWW.Example.COM./", "https://example.com"),
        ("https://news.bbc.co.uk/", "https://bbc.co.uk"),
        ("https://me.github.io/blog", "https://me.github.io"),
        ("app://local/page.html", "app://local"),
        ("app://site3.test/page.html", "app://site3.test"),
        ("http://192.168.1.20:8080/", "http://192.168.1.20"),
        ("http://[::1]:8080/", "http://[::1]"),
    ])
    func aURLsSiteIsItsSchemeAndRegistrableDomain(url: String, site: String) {
        #expect(Site(url: url)?.description == site)
    }

    @Test func twoSubdomainsAreOneSiteAndTwoSchemesTwo() {
        #expect(Site(url: "https://a.example.com/") == Site(url: "https://b.example.com/"))
        #expect(Site(url: "https://example.com/") != Site(url: "http://example.com/"))
        #expect(Site(url: "app://site1.test/") != Site(url: "app://site2.test/"))
    }

    @Test(arguments: ["", "about:blank", "page.html", "https:///path", "data:text/html,x"])
    func textWithNoHostHasNoSite(text: String) {
        #expect(Site(url: text) == nil)
    }
}
