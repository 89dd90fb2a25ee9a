#include <spec/givens.hpp>

#include <fmt/format.h>

#include <array>

namespace headcount::spec {

namespace {
constexpr std::array<std::string_view, 9> k_varying{"d_model", "h",    "d_k",        "d_v",        "kdim",
                                                    "vdim",    "bias", "n_kv_heads", "add_bias_kv"};
} // namespace

std::optional<GivensProblem> check_givens(const MhaGivens& g) {
    if ((!g.d_k || !g.d_v) && g.d_model % g.h != 0) {
        const bool both = !g.d_k && !g.d_v;
        const char* defaulted = both ? "d_k = d_v" : (!g.d_k ? "d_k" : "d_v");
        const char* to_give = both ? "d_k and d_v" : defaulted;
        return GivensProblem{"h", fmt::format("h = {} does not divide d_model = {}, so the default {} = d_model / h is "
                                              "not a whole number; give {} explicitly or choose an h that divides "
                                              "d_model",
                                              g.h, g.d_model, defaulted, to_give)};
    }
    if (g.n_kv_heads && (*g.n_kv_heads > g.h || g.h % *g.n_kv_heads != 0))
        return GivensProblem{"n_kv_heads", fmt::format("n_kv_heads = {} does not divide h = {}: in grouped-query "
                                                       "attention each key/value head serves the same number of "
                                                       "query heads",
                                                       *g.n_kv_heads, g.h)};
    return std::nullopt;
}

std::span<const std::string_view> varying_keys() { return k_varying; }

bool is_flag_key(std::string_view key) { return key == "bias" || key == "add_bias_kv"; }

void set_given(MhaGivens& g, std::string_view key, std::int64_t value) {
    if (key == "d_model")
        g.d_model = value;
    else if (key == "h")
        g.h = value;
    else if (key == "d_k")
        g.d_k = value;
    else if (key == "d_v")
        g.d_v = value;
    else if (key == "kdim")
        g.kdim = value;
    else if (key == "vdim")
        g.vdim = value;
    else if (key == "n_kv_heads")
        g.n_kv_heads = value;
    else if (key == "bias") {
        g.bias = {value != 0, value != 0, value != 0, value != 0};
        g.bias_given_per_projection = false;
    } else if (key == "add_bias_kv")
        g.add_bias_kv = value != 0;
}

} // namespace headcount::spec
