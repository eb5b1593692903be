import Testing
import WireProtocol

@testable import Browser

@Suite struct NavigationPolicyTests {
    let key = LaunchKey()
    let policy = NavigationPolicy()

    @Test(arguments: NavigationType.allCases)
    func mainFramesLoadOnlyFromTheListAndOpenTheRestExternally(_ type: NavigationType) {
        #expect(policy.decide(type, frame: .main, url: "app://local/a.html", key: key).verdict == .allow)
        #expect(policy.decide(type, frame: .main, url: "https://elsewhere.example/x", key: key).verdict == .openExternally)
    }

    @Test(arguments: NavigationType.allCases)
    func subFramesOfAnyHostLoad(_ type: NavigationType) {
        #expect(policy.decide(type, frame: .sub, url: "https://ads.example/frame", key: key).verdict == .allow)
    }

    @Test func rulesAreDataPerTypeAndFrame() {
        var strict = policy
        strict.rules[.formResubmitted] = (main: .cancel, sub: .cancel)
        strict.allowedHosts.insert("friend.example")
        #expect(strict.decide(.formResubmitted, frame: .main, url: "app://local/a.html", key: key).verdict == .cancel)
        #expect(strict.decide(.formResubmitted, frame: .sub, url: "https://ads.example/", key: key).verdict == .cancel)
        #expect(strict.decide(.formSubmitted, frame: .main, url: "https://friend.example/", key: key).verdict == .allow)
        #expect(strict.decide(.linkActivated, frame: .main, url: "HTTPS://Friend.Example/path", key: key).verdict == .allow)
    }

    @Test func internalURLsNeedThisLaunchsKey() {
        let page = InternalURL.errorPage(for: "app://local/missing.html?a=1&b=2", code: 404, key: key)
        #expect(policy.decide(.reload, frame: .main, url: page, key: key).verdict == .allow)
        #expect(InternalURL.check(WebURL(page)!, key: key) == .errorPage(url: "app://local/missing.html?a=1&b=2", code: 404))
        let bare = "internal://local/errorpage?url=x&code=1"
        #expect(policy.decide(.linkActivated, frame: .main, url: bare, key: key).reason == "internal URL without a key")
        let other = InternalURL.errorPage(for: "x", code: 1, key: LaunchKey())
        #expect(policy.decide(.linkActivated, frame: .main, url: other, key: key).reason == "internal URL with a wrong key")
        #expect(policy.decide(.linkActivated, frame: .sub, url: other, key: key).verdict == .cancel)
        #expect(policy.decide(.other, frame: .main, url: "javascript:alert(1)", key: key).verdict == .cancel)
    }

    @Test func launchKeysAreRandomUUIDs() {
        let a = LaunchKey().value, b = LaunchKey().value
        #expect(a != b)
        #expect(a.count == 36 && a.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])
    }

    @Test func urlsAreSplitWithoutDecodingUntilAsked() {
        let url = WebURL("App://Local/a%2e%2e/b?x=%41+b&y#frag")
        #expect(url?.scheme == "app" && url?.host == "local")
        #expect(url?.path == "a%2e%2e/b")
        #expect(url?.queryValue("x") == "A b")
        #expect(url?.queryValue("y") == "")
        #expect(WebURL.percentDecoded(Array("%2e%2E".utf8)) == Array("..".utf8))
        #expect(WebURL.percentDecoded(Array("%zz".utf8)) == nil)
        #expect(WebURL("no-scheme") == nil)
        #expect(WebURL.percentEncoded("a b&c=d/é") == "a%20b%26c%3Dd%2F%C3%A9")
    }
}
