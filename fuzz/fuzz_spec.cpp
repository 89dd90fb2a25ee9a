// Fuzz target: a problem spec from YAML text through the reader, the solver and every writer of a solution
// (Markdown through the built-in templates, the problem sheet, JSON answers). Properties: nothing crashes, hangs
// or throws (nlohmann-json throws on invalid UTF-8), and the Markdown holds only text every format can carry.
#include "fuzz_support.hpp"

#include <grade/mistakes.hpp>
#include <render/solution.hpp>
#include <render/templates.hpp>
#include <spec/reader.hpp>
#include <util/text.hpp>

#include <cstddef>
#include <cstdint>

using namespace headcount;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::vector<std::string_view> asks = solve::ask_ids();
    static const std::vector<std::string_view> mistakes = grade::mistake_ids();
    static const render::TemplateSet templates = render::TemplateSet::builtin();
    const std::string_view yaml(reinterpret_cast<const char*>(data), size);
    auto problem = spec::parse_problem(yaml, "fuzz.yaml", spec::Vocabulary{asks, mistakes});
    if (!problem)
        return 0;
    auto solved = solve::solve_problem(*problem);
    if (!solved)
        return 0;
    const std::string json = render::json_answers(*solved).dump(2); // strict: throws on invalid UTF-8
    fuzz::require(!json.empty(), "no JSON");
    for (auto markdown : {render::markdown_solution(*solved, templates),
                          render::markdown_problem_sheet(*solved, templates, "fuzz-student")})
        if (markdown)
            fuzz::require(!unwritable_text_problem(*markdown), "Markdown carries text a format cannot");
    return 0;
}
