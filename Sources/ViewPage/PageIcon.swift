/// The page's icon (a head with a nose), so the browser asks for nothing the view does not have.
enum PageIcon {
    static let text: StaticString = #"""
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="15" cy="16" r="11" fill="#d6b296"/><path d="M25 14l5 3-5 2z" fill="#ec9678"/><circle cx="20" cy="12" r="1.6" fill="#1e242c"/></svg>
"""#
}
