#include <render/diagram.hpp>

#include <render/svg.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <vector>

namespace headcount::render {

namespace {

constexpr int k_width = 640;
constexpr int k_box_width = 196;
constexpr int k_box_height = 58;
constexpr int k_row_step = 86;
constexpr int k_margin = 14;
// Column centres: the query path, the key path, the value path, and the points between them.
constexpr int k_q = 112, k_k = 320, k_v = 528;
constexpr int k_qk = (k_q + k_k) / 2, k_kv = (k_k + k_v) / 2;

std::string numbers(const std::vector<Count>& shape) {
    std::string out;
    for (Count size : shape)
        out += (out.empty() ? "" : ", ") + plain_number(size);
    return "(" + out + ")";
}

std::string axes(const std::vector<std::string_view>& names) {
    std::string out;
    for (std::string_view name : names)
        out += (out.empty() ? "" : ", ") + std::string(name);
    return "(" + out + ")";
}

/// One box: its centre column, row, title and what it shows.
struct Box {
    int x = 0;
    int row = 0;
    std::string title;
    std::string shape;
    std::string axes;
    [[nodiscard]] int top() const { return k_margin + row * k_row_step; }
    [[nodiscard]] int bottom() const { return top() + k_box_height; }
};

Box tensor_box(int x, int row, std::string title, const solve::Tensor& t) {
    return Box{x, row, std::move(title), numbers(t.shape), axes(t.axes)};
}

std::string draw(const Box& b) {
    const int left = b.x - k_box_width / 2;
    return svg::rect(left, b.top(), k_box_width, k_box_height, "#eef5fc", "#0b5cad", 6) +
           svg::text(b.x, b.top() + 18, b.title, "middle", 13, "#1b1f24", "bold") +
           svg::text(b.x, b.top() + 36, b.shape, "middle", 13) +
           svg::text(b.x, b.top() + 51, b.axes, "middle", 11, "#57606a");
}

/// An arrow from the bottom of `from` to the top of `to`, labelled beside its middle (used on straight arrows).
std::string arrow(const Box& from, const Box& to, std::string_view label = "") {
    const int x1 = from.x, y1 = from.bottom(), x2 = to.x, y2 = to.top() - 2;
    std::string out = svg::line(x1, y1, x2, y2, "#57606a", true);
    if (!label.empty())
        out += svg::text((x1 + x2) / 2 + 8, (y1 + y2) / 2 + 4, label, "start", 11, "#57606a");
    return out;
}

} // namespace

std::string shapes_diagram_svg(const solve::ShapeSolution& s, const solve::MhaSolution& block, bool cross) {
    // Each box is titled with the operation that makes it, so the arrows need no labels but "split heads".
    const std::string source = cross ? "S" : "X";
    const Box x = tensor_box(cross ? k_q : k_k, 0, cross ? "X: the queries' input" : "X: input", s.input);
    const Box q = tensor_box(k_q, 1, "Q = X W_Q", s.q);
    const Box k = tensor_box(k_k, 1, "K = " + source + " W_K", s.k);
    const Box v = tensor_box(k_v, 1, "V = " + source + " W_V", s.v);
    const Box qh = tensor_box(k_q, 2, "Q split into heads", s.q_heads);
    const Box kh = tensor_box(k_k, 2, "K split into heads", s.k_heads);
    const Box vh = tensor_box(k_v, 2, "V split into heads", s.v_heads);
    const Box scores = tensor_box(k_qk, 3, "scores = Q Kᵀ / √d_k", s.scores);
    const Box weights = tensor_box(k_qk, 4, "A = softmax(scores)", s.weights);
    const Box head_output = tensor_box(k_kv, 5, "A V, per head", s.head_output);
    const Box concat = tensor_box(k_kv, 6, "heads concatenated", s.concat);
    const Box output = tensor_box(k_kv, 7, "output = concat W_O", s.output);
    const int height = output.bottom() + k_margin;

    std::string out =
        svg::open(k_width, height, "The tensors of the attention block, from input to output") + svg::arrow_marker();
    out += arrow(x, q);
    if (cross) {
        // K and V are projections of the key/value source S, not of X: a box of its own.
        const std::string batch = plain_number(s.k.shape.front()), m = plain_number(s.k.shape[1]);
        const bool one_width = block.kdim == block.vdim;
        const std::string widths =
            one_width ? plain_number(block.kdim) : fmt::format("{} | {}", block.kdim, block.vdim);
        const Box s_box{k_kv, 0, "S: the keys' and values' input", fmt::format("({}, {}, {})", batch, m, widths),
                        one_width ? "(b, m, kdim)" : "(b, m, kdim | vdim)"};
        out += arrow(s_box, k) + arrow(s_box, v) + draw(s_box);
    } else {
        out += arrow(x, k) + arrow(x, v);
    }
    out += arrow(q, qh, "split heads") + arrow(k, kh, "split heads") + arrow(v, vh, "split heads");
    out += arrow(qh, scores) + arrow(kh, scores) + arrow(scores, weights);
    out += arrow(weights, head_output) + arrow(vh, head_output);
    out += arrow(head_output, concat) + arrow(concat, output);
    for (const Box* box : {&x, &q, &k, &v, &qh, &kh, &vh, &scores, &weights, &head_output, &concat, &output})
        out += draw(*box);
    return out + svg::close();
}

std::string shapes_figure(const solve::ShapeSolution& shapes, const solve::MhaSolution& block, bool cross) {
    return "<figure class=\"diagram\">\n" + shapes_diagram_svg(shapes, block, cross) +
           "<figcaption>The tensors through the block: each box gives the shape in numbers and, below, its "
           "axes.</figcaption>\n</figure>\n";
}

} // namespace headcount::render
