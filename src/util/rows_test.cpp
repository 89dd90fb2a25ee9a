#include <util/rows.hpp>

#include <util/test_catch.hpp>

#include <array>
#include <string_view>

using namespace headcount;

namespace {

enum class Colour { red, green };

struct Flags {
    Colour colour = Colour::green;
    bool a = false;
    bool b = false;
    int count = 0;
};

struct Row {
    std::string_view id;
};

} // namespace

TEST_CASE("field_count counts an aggregate's fields, defaults and all", "[rows]") {
    // What the static check on solve::Recipe relies on: one more field, declared by hand, changes the count.
    STATIC_REQUIRE(field_count<Flags>() == 4);
    STATIC_REQUIRE(field_count<Row>() == 1);
}

TEST_CASE("ids_unique finds two rows with the same id", "[rows]") {
    STATIC_REQUIRE(ids_unique(std::to_array<Row>({{"a"}, {"b"}, {"c"}})));
    STATIC_REQUIRE_FALSE(ids_unique(std::to_array<Row>({{"a"}, {"b"}, {"a"}})));
    STATIC_REQUIRE(ids_unique(std::array<Row, 0>{}));
}
