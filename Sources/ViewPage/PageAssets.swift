/// One file the view serves, kept in the binary: the page travels with `headtrack` and nothing is fetched
/// from anywhere when it runs.
public struct PageAsset: Sendable, Equatable {
    public let path: String
    public let contentType: String
    public let bytes: [UInt8]

    init(_ path: String, _ contentType: String, _ text: StaticString) {
        self.path = path
        self.contentType = contentType
        bytes = text.withUTF8Buffer { Array($0) }
    }

    public static func == (a: PageAsset, b: PageAsset) -> Bool { a.path == b.path }
}

public enum PageAssets {
    public static let page = PageAsset("/", "text/html; charset=utf-8", PageHTML.text)
    public static let script = PageAsset("/view.js", "text/javascript; charset=utf-8", PageScript.text)
    public static let style = PageAsset("/view.css", "text/css; charset=utf-8", PageStyle.text)
    public static let icon = PageAsset("/icon.svg", "image/svg+xml", PageIcon.text)
    public static let all = [page, script, style, icon]
}
