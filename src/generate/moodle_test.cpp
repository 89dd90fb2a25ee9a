#include <generate/moodle.hpp>

#include <catch2/catch.hpp>

using headcount::generate::xml_escape;

TEST_CASE("Moodle XML text escapes markup and replaces what XML 1.0 cannot carry (defect 4)",
          "[moodle][hostile]") {
    CHECK(xml_escape("a < b & \"c\" > d") == "a &lt; b &amp; &quot;c&quot; &gt; d");
    CHECK(xml_escape("tab\there\nZoë ×") == "tab\there\nZoë ×");
    // XML 1.0's Char production excludes C0 controls but tab, LF and CR, and U+FFFE/U+FFFF; DEL and C1 are
    // allowed but invisible junk. Before, ESC went into the bank raw and no parser would read it.
    CHECK(xml_escape("T\x1b[31m") == "T\xEF\xBF\xBD[31m");
    CHECK(xml_escape(std::string_view("a\0b", 3)) == "a\xEF\xBF\xBD"
                                                     "b");
    CHECK(xml_escape("\xC2\x85|\xEF\xBF\xBF") == "\xEF\xBF\xBD|\xEF\xBF\xBD");
    CHECK(xml_escape("caf\xE9 <") == "caf\xEF\xBF\xBD &lt;");
}
