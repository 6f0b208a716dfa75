/// A bar chart drawn on the server as inline SVG (issue #47: no chart library in the browser,
/// nothing for CSP to allow): one bar per interval, scaled to the largest, with an accessible
/// name (`role="img"`, `<title>`) saying what the bars show in words, and each bar's count in
/// its own `<title>` (a tooltip).
enum ConsoleChart {
    static let width = 360
    static let height = 90

    /// The SVG markup for `counts`; `description` names the chart for assistive technology.
    static func bars(_ counts: [Int], description: String, color: String = "#1d4fc4") -> String {
        let peak = max(counts.max() ?? 0, 1)
        let slot = Double(width) / Double(max(counts.count, 1))
        let barWidth = max(slot - 2, 1)
        var svg =
            #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \#(width) \#(height + 2)" width="\#(width)" height="\#(height + 2)" role="img" aria-label="\#(escape(description))">"#
        svg += "<title>\(escape(description))</title>"
        svg += ##"<line x1="0" y1="\##(height)" x2="\##(width)" y2="\##(height)" stroke="#8a8f98" stroke-width="1"/>"##
        for (index, count) in counts.enumerated() {
            let barHeight = count == 0 ? 0 : max(2, Int((Double(count) / Double(peak) * Double(height - 4)).rounded()))
            let x = Double(index) * slot + 1
            svg +=
                #"<rect x="\#(format(x))" y="\#(height - barHeight)" width="\#(format(barWidth))" height="\#(barHeight)" fill="\#(color)"><title>\#(count)</title></rect>"#
        }
        return svg + "</svg>"
    }

    private static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// Text for an SVG attribute or element.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
