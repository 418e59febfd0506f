// The plain-text floor (JSON, line buffers and splitting, numbers, escaping) is part of every format: a module
// that reads or writes a file of the project's sees it through Formats, as before it moved down.
@_exported import PlainText
