// Fuzz target: instructor templates (--templates) rendering shipped solutions. An input is one or more template
// files, each starting with a line ">>> NAME" (e.g. ">>> partials/heads"); text before the first such line is
// "solution". They replace the built-in templates of the same name, and a shipped problem is rendered.
// Properties: nothing crashes, hangs or grows without bound, whatever the tags, delimiters and partials.
#include "fuzz_support.hpp"

#include <render/solution.hpp>
#include <render/templates.hpp>

#include <cstddef>
#include <cstdint>

using namespace headcount;

namespace {

std::vector<render::TemplateFile> files_of(std::string_view input) {
    std::vector<render::TemplateFile> files;
    std::string name = "solution", text;
    const auto finish = [&] {
        if (name != "solution" || !text.empty() || !files.empty()) // no leading text: keep the built-in frame
            files.push_back({name, "fuzz/" + name + ".mustache", text});
    };
    for (std::size_t at = 0; at < input.size();) {
        const std::size_t end = std::min(input.find('\n', at), input.size() - 1) + 1; // one line, with its '\n'
        const std::string_view line = input.substr(at, end - at);
        if (line.starts_with(">>> ")) {
            finish();
            name = std::string(line.substr(4, line.size() - 4 - (line.ends_with('\n') ? 1 : 0)));
            text.clear();
        } else {
            text += line;
        }
        at = end;
    }
    finish();
    return files;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const render::TemplateSet builtin = render::TemplateSet::builtin();
    const render::TemplateSet templates =
        builtin.with_files(files_of(std::string_view(reinterpret_cast<const char*>(data), size)));
    // One of two shipped problems per input (by its size's parity): parameter counts, or shapes and memory.
    const char* id = size % 2 == 0 ? "week3-mha-params" : "mha-shapes-memory";
    auto markdown = render::markdown_solution(fuzz::shipped_problem(id), templates);
    fuzz::require(!markdown || markdown->size() <= render::k_max_rendered_bytes, "a render past its bound");
    return 0;
}
