import ViewPage

/// What the view answers to a request: one of its files, the event stream, or a refusal that says why.
public enum ViewRoute: Sendable, Equatable {
    case asset(PageAsset)
    case events
    case noContent
    case refuse(HTTPRejection)
}

public enum ViewRouter {
    public static func route(_ request: HTTPRequest) -> ViewRoute {
        guard request.method == "GET" else {
            return .refuse(HTTPRejection(405, "the view only answers GET"))
        }
        // A Host that is not this machine's loopback name is a page of another site that resolved its own name
        // to 127.0.0.1 (DNS rebinding): it must not read the head tracker.
        let hosts = request.count(of: "Host")
        if hosts > 1 { return .refuse(HTTPRejection(400, "more than one Host header")) }
        if let host = request.header("Host") {
            guard isLoopbackHost(host) else {
                return .refuse(HTTPRejection(403, "the view answers only as http://127.0.0.1:PORT/ or http://localhost:PORT/, not as \(host.prefix(64))"))
            }
        } else if request.version == "HTTP/1.1" {
            return .refuse(HTTPRejection(400, "an HTTP/1.1 request needs a Host header"))
        }
        if request.header("Transfer-Encoding") != nil {
            return .refuse(HTTPRejection(400, "a GET carries no body (Transfer-Encoding)"))
        }
        if request.count(of: "Content-Length") > 1 {
            return .refuse(HTTPRejection(400, "more than one Content-Length header"))
        }
        if let length = request.header("Content-Length"), length != "0" {
            return .refuse(HTTPRejection(413, "a GET carries no body (Content-Length \(length.prefix(20)))"))
        }
        switch request.path {
        case "/", "/index.html": return .asset(PageAssets.page)
        case "/events": return .events
        case "/favicon.ico": return .noContent
        default:
            if let asset = PageAssets.all.first(where: { $0.path == request.path }) { return .asset(asset) }
            return .refuse(HTTPRejection(404, "no such page: the view serves / (the page) and /events (the stream)"))
        }
    }

    /// `127.0.0.1`, `localhost` or `[::1]`, with or without a port: what a browser sends for the URL the view
    /// prints, and for the local end of an `ssh -L` forward.
    public static func isLoopbackHost(_ host: String) -> Bool {
        var name = Substring(host.lowercased())
        if let colon = name.lastIndex(of: ":"), !name.hasSuffix("]") {
            let port = name[name.index(after: colon)...]
            guard !port.isEmpty, port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
            name = name[..<colon]
        }
        return name == "127.0.0.1" || name == "localhost" || name == "[::1]"
    }
}
