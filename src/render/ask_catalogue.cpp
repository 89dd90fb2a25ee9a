#include <render/ask_catalogue.hpp>

#include <render/solution.hpp>

#include <fmt/format.h>

#include <array>
#include <utility>

namespace headcount::render {

std::string ask_needs_words(const solve::Ask& ask) {
    using Ask = solve::Ask;
    // In the words of the spec's keys, which is what an instructor adds to make the ask answerable.
    constexpr auto k_words = std::to_array<std::pair<unsigned, std::string_view>>({
        {Ask::workload, "seq_len"},
        {Ask::dtype, "dtype"},
        {Ask::encoder_decoder, "encoder_layers and decoder_layers"},
        {Ask::one_stack, "one stack of layers"},
        {Ask::self_attention, "no seq_len_kv"},
    });
    std::string out;
    for (const auto& [flag, words] : k_words)
        if (ask.needs & flag)
            out += (out.empty() ? "" : ", ") + std::string(words);
    return out;
}

std::string asks_markdown() {
    std::string out = "| ask | what it asks for | unit | kind | needs | group | templates |\n"
                      "|---|---|---|---|---|---|---|\n";
    for (const solve::Ask& ask : solve::asks())
        out += fmt::format("| `{}` | {} | {} | {} | {} | {} | `{}`, `{}` |\n", ask.id, ask.noun, ask.unit, ask.kind,
                           ask_needs_words(ask), ask.group, solution_template(ask), question_template(ask));
    return out;
}

} // namespace headcount::render
