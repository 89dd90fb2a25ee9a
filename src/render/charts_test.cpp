#include <render/charts.hpp>
#include <render/diagram.hpp>

#include <spec/test_givens.hpp>

#include <solve/test_solve.hpp>
#include <util/test_catch.hpp>

#include <regex>
#include <vector>

using namespace headcount;
using render::ChartBar;

namespace {

/// Whether every element of an SVG text is closed in order (a small XML well-formedness check).
bool balanced(const std::string& svg) {
    static const std::regex tag(R"(<(/?)([a-zA-Z]+)[^>]*?(/?)>)");
    std::vector<std::string> open;
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), tag); it != std::sregex_iterator(); ++it) {
        const std::string name = (*it)[2].str();
        if ((*it)[3].length() > 0) // <rect .../>
            continue;
        if ((*it)[1].length() == 0) {
            open.push_back(name);
        } else {
            if (open.empty() || open.back() != name)
                return false;
            open.pop_back();
        }
    }
    return open.empty();
}

/// The value of `attribute` in every element `<name ...>` whose text contains `marker`.
std::vector<int> attribute_of(const std::string& svg, const std::string& name, const std::string& marker,
                              const std::string& attribute) {
    std::vector<int> values;
    static const std::regex element(R"(<([a-z]+) [^>]*>)");
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), element); it != std::sregex_iterator(); ++it) {
        const std::string text = it->str();
        if ((*it)[1].str() != name || text.find(marker) == std::string::npos)
            continue;
        std::smatch m;
        if (std::regex_search(text, m, std::regex(" " + attribute + "=\"(-?[0-9]+)\"")))
            values.push_back(std::stoi(m[1].str()));
    }
    return values;
}

} // namespace

TEST_CASE("histogram columns are in proportion to the counts", "[charts]") {
    // The tallest column is 200 px; by hand: 200 x 1/4 = 50, 200 x 3/4 = 150, 0, 200.
    CHECK(render::column_height(1, 4) == 50);
    CHECK(render::column_height(3, 4) == 150);
    CHECK(render::column_height(0, 4) == 0);
    CHECK(render::column_height(4, 4) == 200);
    CHECK(render::column_height(1, 3) == 67);  // 66.67
    CHECK(render::column_height(1, 400) == 1); // 0.5 rounds half up
    CHECK(render::column_height(0, 0) == 0);   // nobody at all

    const std::vector<ChartBar> bins{{"0-25%", 1}, {"25-50%", 3}, {"50-75%", 0}, {"75-100%", 4}};
    const std::string svg = render::histogram_svg(bins, "Scores <of> the class & more", "students");
    CHECK(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    CHECK(balanced(svg));
    CHECK(svg.find("<title>Scores &lt;of&gt; the class &amp; more</title>") != std::string::npos);
    CHECK(attribute_of(svg, "rect", "fill=\"#0b5cad\"", "height") == std::vector<int>{50, 150, 0, 200});
    // Each column stands on the same base line: y + height is the same for all.
    const auto ys = attribute_of(svg, "rect", "fill=\"#0b5cad\"", "y");
    REQUIRE(ys.size() == 4);
    CHECK(ys[0] + 50 == ys[3] + 200);
    CHECK(ys[2] + 0 == ys[3] + 200);
    // Ticks every student up to 4 (at most five steps): 0, 1, 2, 3, 4.
    for (const char* tick : {">0<", ">1<", ">2<", ">3<", ">4<"})
        CHECK(svg.find(tick) != std::string::npos);
    CHECK(svg.find(">75-100%<") != std::string::npos);
}

TEST_CASE("a histogram of no one still draws", "[charts]") {
    const std::vector<ChartBar> bins{{"0-50%", 0}, {"50-100%", 0}};
    const std::string svg = render::histogram_svg(bins, "Scores", "students");
    CHECK(balanced(svg));
    CHECK(attribute_of(svg, "rect", "fill=\"#0b5cad\"", "height") == std::vector<int>{0, 0});
}

TEST_CASE("mistake bars are shares of the answers", "[charts]") {
    // Of 10 answers: 400 px x 4/10 = 160, x 2/10 = 80, x 1/10 = 40.
    const std::vector<ChartBar> bars{{"The output projection W_O <and its bias> was left out", 4},
                                     {"The bias vectors were left out", 2},
                                     {"Only one head's slices were counted", 1}};
    const std::string svg = render::frequency_chart_svg(bars, 10, "Mistakes in part (b)");
    CHECK(balanced(svg));
    CHECK(attribute_of(svg, "rect", "fill=\"#0b5cad\"", "width") == std::vector<int>{160, 80, 40});
    CHECK(svg.find(">4 (40%)<") != std::string::npos);
    CHECK(svg.find(">1 (10%)<") != std::string::npos);
    CHECK(svg.find("W_O &lt;and its bias&gt; was left out") != std::string::npos);
}

TEST_CASE("the shapes diagram shows every tensor with its shape", "[charts][diagram]") {
    // The lesson's example: b = 32, n = 128, d_model = 512, h = 8, so d_k = 64.
    spec::Workload w;
    w.batch = 32;
    w.seq_len = 128;
    const auto solved = testing::solved_of(testing::mha(512, 8), {}, w);
    const std::string svg = render::shapes_diagram_svg(*solved.shapes, solved.mha, false);
    CHECK(balanced(svg));
    CHECK(attribute_of(svg, "rect", "stroke=\"#0b5cad\"", "width").size() == 12); // X, Q, K, V, 3 split, 5 more
    for (const char* shown : {"(32, 128, 512)", "(32, 8, 128, 64)", "(32, 8, 128, 128)", "(b, h, n, d_k)", "Q = X W_Q",
                              "K = X W_K", "A = softmax(scores)", "output = concat W_O"})
        CHECK(svg.find(shown) != std::string::npos);

    // Cross-attention: K and V come from a source of m = 256 positions, 384 wide (given by hand).
    spec::MhaGivens cross = testing::mha(512, 8);
    cross.kdim = cross.vdim = 384;
    w.seq_len_kv = 256;
    const auto cross_solved = testing::solved_of(cross, {}, w);
    const std::string cross_svg = render::shapes_diagram_svg(*cross_solved.shapes, cross_solved.mha, true);
    CHECK(balanced(cross_svg));
    CHECK(attribute_of(cross_svg, "rect", "stroke=\"#0b5cad\"", "width").size() == 13);
    CHECK(cross_svg.find("K = S W_K") != std::string::npos);
    CHECK(cross_svg.find("(32, 256, 384)") != std::string::npos);    // S: (b, m, kdim)
    CHECK(cross_svg.find("(32, 8, 128, 256)") != std::string::npos); // scores: (b, h, n, m)
}
