import Foundation
import Testing
@testable import BrowserView
import ViewPage

/// What each request gets: the page's four files and the stream, and a refusal that names the problem for
/// anything else, including requests a page of another site could make through DNS rebinding.
@Suite struct ViewRouterTests {
    func route(_ target: String, method: String = "GET", version: String = "HTTP/1.1",
               headers: [(String, String)] = [("Host", "127.0.0.1:8740")]) -> ViewRoute {
        ViewRouter.route(HTTPRequest(method: method, target: target, version: version,
                                     headers: headers.map { .init(name: $0.0, value: $0.1) }))
    }

    func status(_ r: ViewRoute) -> Int? {
        if case let .refuse(why) = r { return why.status }
        return nil
    }

    @Test func thePageItsFilesAndTheStream() {
        #expect(route("/") == .asset(PageAssets.page))
        #expect(route("/index.html") == .asset(PageAssets.page))
        #expect(route("/?reload=1") == .asset(PageAssets.page))
        #expect(route("/view.js") == .asset(PageAssets.script))
        #expect(route("/view.css") == .asset(PageAssets.style))
        #expect(route("/icon.svg") == .asset(PageAssets.icon))
        #expect(route("/events") == .events)
        #expect(route("/favicon.ico") == .noContent)
    }

    @Test func everyOtherPathIsNotFound() {
        for path in ["/../etc/passwd", "/view.js/../../etc/passwd", "//etc/passwd", "/%2e%2e/%2e%2e/etc/passwd",
                     "/events/", "/VIEW.JS", "/.git/config", "/index.html%00"] {
            #expect(status(route(path)) == 404, "\(path)")
        }
    }

    @Test func onlyGet() {
        for method in ["POST", "PUT", "DELETE", "HEAD", "OPTIONS", "CONNECT", "TRACE", "get"] {
            #expect(status(route("/", method: method)) == 405, "\(method)")
        }
    }

    @Test func anotherSitesNameIsForbidden() {
        #expect(status(route("/events", headers: [("Host", "attacker.example:8740")])) == 403)
        #expect(status(route("/", headers: [("Host", "127.0.0.1.attacker.example")])) == 403)
        #expect(status(route("/", headers: [("Host", "localhost"), ("Host", "attacker.example")])) == 400)
        #expect(status(route("/", headers: [])) == 400)                          // HTTP/1.1 needs a Host
        #expect(route("/", version: "HTTP/1.0", headers: []) == .asset(PageAssets.page))
    }

    @Test func aGetWithABodyIsRefused() {
        #expect(status(route("/", headers: [("Host", "localhost"), ("Content-Length", "12")])) == 413)
        #expect(status(route("/", headers: [("Host", "localhost"), ("Transfer-Encoding", "chunked")])) == 400)
        #expect(status(route("/", headers: [("Host", "localhost"), ("Content-Length", "0"), ("Content-Length", "5")])) == 400)
        #expect(route("/", headers: [("Host", "localhost"), ("Content-Length", "0")]) == .asset(PageAssets.page))
    }

    @Test func loopbackNames() {
        for host in ["127.0.0.1", "127.0.0.1:8740", "localhost", "LocalHost:1", "[::1]", "[::1]:8740"] {
            #expect(ViewRouter.isLoopbackHost(host), "\(host)")
        }
        for host in ["", "127.0.0.2", "127.0.0.1.evil", "localhost:", "localhost:abc", "localhost:123456", "evil.com",
                     "[::2]", "::1", "localhost.:80", "0.0.0.0:8740"] {
            #expect(!ViewRouter.isLoopbackHost(host), "\(host)")
        }
    }

    @Test func refusalsSayWhatWasWrong() {
        let bytes = HTTPResponse.error(HTTPRejection(405, "the view only answers GET"))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"))
        #expect(text.contains("\r\nAllow: GET\r\n") && text.contains("\r\nConnection: close\r\n"))
        #expect(text.hasSuffix("\r\n\r\n405 Method Not Allowed: the view only answers GET\n"))
        let length = text.components(separatedBy: "Content-Length: ")[1].prefix { $0.isNumber }
        #expect(Int(length) == "405 Method Not Allowed: the view only answers GET\n".utf8.count)
    }

    @Test func thePageLoadsNothingFromElsewhere() {
        let html = String(decoding: PageAssets.page.bytes, as: UTF8.self)
        let script = String(decoding: PageAssets.script.bytes, as: UTF8.self)
        let style = String(decoding: PageAssets.style.bytes, as: UTF8.self)
        for text in [html, script, style] {
            #expect(!text.contains("http://") && !text.contains("https://") && !text.contains("//cdn"))
        }
        #expect(!html.contains("<script>") && !html.contains("style="))  // the CSP allows neither inline
        let csp = String(decoding: HTTPResponse.head(200, []), as: UTF8.self)
        #expect(csp.contains("default-src 'none'; script-src 'self'; style-src 'self'"))
    }
}
