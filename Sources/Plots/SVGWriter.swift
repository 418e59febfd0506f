import Formats

/// Builds SVG text element by element. Every piece of text and every attribute value goes through
/// `escaped`, so a title like `a<b & "c"` cannot break the document.
struct SVGWriter {
    private(set) var text = ""

    /// An empty body; `document` wraps it once the page height is known.
    init() { text.reserveCapacity(1 << 16) }

    /// The complete SVG file around a body.
    static func document(width: Double, height: Double, title: String, body: String) -> String {
        let w = fixed(width, 1), h = fixed(height, 1)
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        s += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\" "
        s += "font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\" font-size=\"12\">\n"
        s += "<title>\(escaped(title))</title>\n"
        s += "<rect x=\"0\" y=\"0\" width=\"\(w)\" height=\"\(h)\" fill=\"#ffffff\"/>\n"
        s += body
        s += "</svg>\n"
        return s
    }

    /// XML-escapes text and attribute values.
    static func escaped(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // Control characters other than tab/newline are not allowed in XML 1.0 at all.
                if c.value < 0x20 && c != "\t" && c != "\n" { out += " " } else { out.unicodeScalars.append(c) }
            }
        }
        return out
    }

    /// A coordinate with one decimal: enough for a screen, and keeps big plots small.
    func n(_ v: Double) -> String { fixed(v, 1) }

    /// `attributes` are (name, value) pairs; values are escaped.
    private func attributeText(_ attributes: [(String, String)]) -> String {
        var s = ""
        for (k, v) in attributes { s += " \(k)=\"\(SVGWriter.escaped(v))\"" }
        return s
    }

    mutating func raw(_ s: String) { text += s }

    mutating func open(_ element: String, _ attributes: [(String, String)] = []) {
        text += "<\(element)\(attributeText(attributes))>\n"
    }

    mutating func close(_ element: String) { text += "</\(element)>\n" }

    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, stroke: String, width: Double = 1,
                       dash: String? = nil) {
        var a: [(String, String)] = [("x1", n(x1)), ("y1", n(y1)), ("x2", n(x2)), ("y2", n(y2)),
                                     ("stroke", stroke), ("stroke-width", n(width))]
        if let d = dash { a.append(("stroke-dasharray", d)) }
        text += "<line\(attributeText(a))/>\n"
    }

    mutating func rect(x: Double, y: Double, width: Double, height: Double, fill: String, opacity: Double? = nil,
                       stroke: String? = nil) {
        var a: [(String, String)] = [("x", n(x)), ("y", n(y)), ("width", n(width)), ("height", n(height)), ("fill", fill)]
        if let o = opacity { a.append(("fill-opacity", fixed(o, 2))) }
        if let s = stroke { a.append(("stroke", s)) }
        text += "<rect\(attributeText(a))/>\n"
    }

    /// A path whose `d` is already built from numbers (nothing to escape).
    mutating func path(_ d: String, stroke: String, width: Double, fill: String = "none", clip: String? = nil,
                       id: String? = nil) {
        guard !d.isEmpty else { return }
        var a: [(String, String)] = []
        if let id { a.append(("id", id)) }
        a += [("fill", fill), ("stroke", stroke), ("stroke-width", n(width)), ("stroke-linejoin", "round")]
        if let c = clip { a.append(("clip-path", "url(#\(c))")) }
        text += "<path\(attributeText(a)) d=\"\(d)\"/>\n"
    }

    enum Anchor: String { case start, middle, end }

    mutating func label(_ s: String, x: Double, y: Double, anchor: Anchor = .start, size: Double? = nil,
                        bold: Bool = false, fill: String = "#222222", rotate: Bool = false) {
        var a: [(String, String)] = [("x", n(x)), ("y", n(y)), ("text-anchor", anchor.rawValue), ("fill", fill)]
        if let size { a.append(("font-size", n(size))) }
        if bold { a.append(("font-weight", "bold")) }
        if rotate { a.append(("transform", "rotate(-90 \(n(x)) \(n(y)))")) }
        text += "<text\(attributeText(a))>\(SVGWriter.escaped(s))</text>\n"
    }

    /// Estimated width (px) of `s` at `size` px: an upper bound for common sans-serif fonts, used to lay text
    /// out without overlaps (there is no font metrics engine here).
    static func textWidth(_ s: String, size: Double = 12) -> Double {
        Double(s.unicodeScalars.count) * size * 0.62
    }
}
