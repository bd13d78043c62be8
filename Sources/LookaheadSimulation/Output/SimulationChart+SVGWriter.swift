// The chart's SVG writer, which escapes everything it writes.

extension SimulationChart {
    /// Accumulates SVG markup, escaping every attribute value and text node.
    ///
    /// Escaping happens here rather than at each call site so that no scenario
    /// or strategy name can reach the output unescaped. Attributes are an
    /// ordered list, not a dictionary, so the output never depends on hashing
    /// (which is seeded per process).
    struct SVGWriter {
        private var lines: [String] = []
        private var openElements: [String] = []

        /// The markup written so far, one element per line.
        var text: String { lines.joined(separator: "\n") + "\n" }

        /// Writes a line of markup as is (the XML declaration, a stylesheet).
        mutating func raw(_ markup: String) {
            lines.append(indentation + markup)
        }

        /// Opens an element that later calls fill, until ``close()``.
        mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
            lines.append(indentation + "<\(name)\(Self.attributeList(attributes))>")
            openElements.append(name)
        }

        /// Closes the innermost open element.
        mutating func close() {
            guard let name = openElements.popLast() else {
                preconditionFailure("SVGWriter.close() without an open element")
            }
            lines.append(indentation + "</\(name)>")
        }

        /// Writes an element with the given text content (escaped), or an empty element.
        mutating func element(_ name: String, _ attributes: [(String, String)] = [], text: String? = nil) {
            let start = indentation + "<\(name)\(Self.attributeList(attributes))"
            if let text {
                lines.append(start + ">\(SimulationChart.escape(text))</\(name)>")
            } else {
                lines.append(start + "/>")
            }
        }

        /// Writes a `<text>` element with a tooltip, for labels that were shortened.
        mutating func text(_ text: String, tooltip: String, _ attributes: [(String, String)]) {
            guard text != tooltip else {
                element("text", attributes, text: text)
                return
            }
            // On one line: whitespace around the label would be drawn as a leading space.
            lines.append(
                indentation + "<text\(Self.attributeList(attributes))><title>\(SimulationChart.escape(tooltip))</title>"
                    + "\(SimulationChart.escape(text))</text>")
        }

        private var indentation: String { String(repeating: "  ", count: openElements.count) }

        private static func attributeList(_ attributes: [(String, String)]) -> String {
            attributes.map { " \($0.0)=\"\(SimulationChart.escape($0.1))\"" }.joined()
        }
    }

    /// Escapes text for XML content and attribute values.
    ///
    /// Control characters other than tab, line feed and carriage return are
    /// not allowed in XML 1.0 even as character references, so they become
    /// U+FFFD rather than making the document unreadable.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
