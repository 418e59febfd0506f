/// Response heads and the short error responses of the view, as bytes ready to send.
public enum HTTPResponse {
    /// Sent with everything: nothing is cached, sniffed or framed, and the page may load only its own files
    /// and open only its own event stream (the CSP is what "nothing fetched at run time" rests on).
    static let commonHeaders: [(String, String)] = [
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
        ("Content-Security-Policy",
         "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
    ]

    public static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 204: return "No Content"
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 431: return "Request Header Fields Too Large"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return "Error"
        }
    }

    /// A status line and headers, ending with the blank line. Every response closes its connection: a page
    /// load is four requests, and a connection kept open would hold one of the few slots.
    public static func head(_ status: Int, _ headers: [(String, String)]) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(reason(status))\r\n"
        for (name, value) in headers + commonHeaders { text += "\(name): \(value)\r\n" }
        text += "Connection: close\r\n\r\n"
        return Array(text.utf8)
    }

    /// A whole response with a body.
    public static func body(_ status: Int, contentType: String, _ body: [UInt8], extra: [(String, String)] = []) -> [UInt8] {
        head(status, [("Content-Type", contentType), ("Content-Length", String(body.count))] + extra) + body
    }

    /// The plain-text answer to a refused request: the status and what to do.
    public static func error(_ rejection: HTTPRejection) -> [UInt8] {
        var extra: [(String, String)] = []
        if rejection.status == 405 { extra.append(("Allow", "GET")) }
        if rejection.status == 503 { extra.append(("Retry-After", "5")) }
        let text = "\(rejection.status) \(reason(rejection.status)): \(rejection.message)\n"
        return body(rejection.status, contentType: "text/plain; charset=utf-8", Array(text.utf8), extra: extra)
    }

    /// The head of the event stream (server-sent events); the body goes on until either side closes.
    public static let eventStreamHead: [UInt8] = head(200, [("Content-Type", "text/event-stream; charset=utf-8")])
}
