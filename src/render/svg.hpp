#pragma once
// A few SVG elements written as text, for the pictures headcount draws itself (charts, the shapes diagram).
// Coordinates are whole pixels, so the same input gives the same bytes everywhere.

#include <util/text.hpp>

#include <fmt/format.h>

#include <string>
#include <string_view>

namespace headcount::render::svg {

/// The opening <svg> element with its accessible title (read aloud, shown on hover) and the shared styles.
inline std::string open(int width, int height, std::string_view title) {
    return fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
                       "role=\"img\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
                       "<title>{2}</title>\n",
                       width, height, escape_xml(title));
}

inline std::string close() { return "</svg>\n"; }

/// Text at (x, y), y being the baseline; anchor is start, middle or end.
inline std::string text(int x, int y, std::string_view content, std::string_view anchor = "start", int size = 12,
                        std::string_view fill = "#1b1f24", std::string_view weight = "normal") {
    return fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"{}\" font-size=\"{}\" fill=\"{}\"{}>{}</text>\n", x, y,
                       anchor, size, fill, weight == "normal" ? "" : fmt::format(" font-weight=\"{}\"", weight),
                       escape_xml(content));
}

inline std::string rect(int x, int y, int width, int height, std::string_view fill, std::string_view stroke = "none",
                        int radius = 0) {
    return fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"{}\" stroke=\"{}\"/>\n", x,
                       y, width, height, radius, fill, stroke);
}

inline std::string line(int x1, int y1, int x2, int y2, std::string_view stroke = "#57606a", bool arrow = false) {
    return fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"1.5\"{}/>\n", x1, y1,
                       x2, y2, stroke, arrow ? " marker-end=\"url(#arrow)\"" : "");
}

/// The arrowhead that line(..., arrow = true) ends in; put once in a picture that draws arrows.
inline std::string arrow_marker() {
    return "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" "
           "markerHeight=\"7\" "
           "orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"#57606a\"/></marker></defs>\n";
}

} // namespace headcount::render::svg
