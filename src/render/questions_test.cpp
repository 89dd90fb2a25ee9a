// The question every ask writes must agree with the givens: no bias where the spec turns biases off, the shared
// key/value heads under grouped-query attention, the second input S under cross-attention (issue 9).

#include <render/solution.hpp>

#include <grade/mistakes.hpp>
#include <spec/reader.hpp>

#include <util/test_catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace headcount;

namespace {

/// Every ask this block can answer, one part each, with a workload and a dtype so that none is left out.
std::string every_ask(const std::string& given) {
    std::string yaml = "id: p\ntitle: t\ngiven: {" + given + ", seq_len: 16, batch: 2, dtype: fp16}\nparts:\n";
    int n = 0;
    for (const solve::Ask& ask : solve::asks())
        if (ask.kind == "mha")
            yaml += "  - {id: p" + std::to_string(++n) + ", ask: " + std::string(ask.id) + "}\n";
    return yaml;
}

/// The problem sheet's questions, one string per part.
std::vector<std::string> questions(const std::string& given) {
    const auto asks = solve::ask_ids();
    const auto mistakes = grade::mistake_ids();
    auto problem = spec::parse_problem(every_ask(given), "p.yaml", spec::Vocabulary{asks, mistakes});
    REQUIRE(problem.has_value());
    auto solved = solve::solve_problem(*problem);
    REQUIRE(solved.has_value());
    auto templates = std::optional(render::TemplateSet::builtin());
    REQUIRE(templates.has_value());
    auto sheet = render::markdown_problem_sheet(*solved, *templates, "");
    REQUIRE(sheet.has_value());
    std::vector<std::string> out;
    std::size_t at = 0;
    while ((at = sheet->find("\n**(", at)) != std::string::npos) {
        const std::size_t end = sheet->find("\n**(", at + 1);
        out.push_back(sheet->substr(at, end == std::string::npos ? std::string::npos : end - at));
        at += 1;
    }
    REQUIRE(out.size() == problem->parts.size());
    return out;
}

} // namespace

TEST_CASE("with bias: false no question speaks of biases the block does not have", "[render][questions]") {
    for (const std::string& q : questions("d_model: 512, h: 8, bias: false")) {
        INFO(q);
        for (const char* claim : {"their biases", "and its bias", "all their biases", "with the biases"})
            CHECK(q.find(claim) == std::string::npos);
    }
    // Only b_O off: the total names the biases that exist, and O's question says it has none.
    const auto some = questions("d_model: 512, h: 8, bias: {o: false}");
    const auto total = std::find_if(some.begin(), some.end(), [](const std::string& q) {
        return q.find("whole multi-head attention block have") != std::string::npos;
    });
    REQUIRE(total != some.end());
    CHECK(total->find("with the biases they have ($b_Q$, $b_K$ and $b_V$)") != std::string::npos);
    const auto o = std::find_if(some.begin(), some.end(), [](const std::string& q) {
        return q.find("output projection have") != std::string::npos;
    });
    REQUIRE(o != some.end());
    CHECK(o->find("it has no bias here") != std::string::npos);
}

TEST_CASE("under grouped-query attention the key and value questions say the heads are shared", "[render][questions]") {
    int told = 0;
    for (const std::string& q : questions("d_model: 512, h: 8, n_kv_heads: 2")) {
        INFO(q);
        const bool about_kv = q.find("key projection have") != std::string::npos ||
                              q.find("value projection have") != std::string::npos ||
                              q.find("have together") != std::string::npos ||
                              q.find("whole multi-head attention block have") != std::string::npos;
        if (about_kv) {
            CHECK(q.find("the 8 query heads share 2 key/value heads") != std::string::npos);
            ++told;
        }
    }
    CHECK(told == 4); // k_params, v_params, qkv_params, total_params
}

TEST_CASE("under cross-attention keys and values come from S, never from X", "[render][questions]") {
    int told = 0;
    for (const std::string& q : questions("d_model: 512, h: 8, kdim: 256, vdim: 128")) {
        INFO(q);
        CHECK(q.find("X W_K") == std::string::npos);
        CHECK(q.find("X W_V") == std::string::npos);
        told += q.find("S W_K") != std::string::npos || q.find("S W_V") != std::string::npos ||
                q.find("input S") != std::string::npos;
    }
    CHECK(told == 6); // k_params, v_params, qkv_params, total_params, shape.k, shape.v
}
