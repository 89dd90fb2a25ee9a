#include <util/text.hpp>

#include <catch2/catch.hpp>

using headcount::escape_xml;

TEST_CASE("XML text (Moodle banks, HTML, SVG) escapes markup and replaces what XML 1.0 cannot carry (defect 4)",
          "[text][hostile]") {
    CHECK(escape_xml("a < b & \"c\" > d") == "a &lt; b &amp; &quot;c&quot; &gt; d");
    CHECK(escape_xml("tab\there\nZoë ×") == "tab\there\nZoë ×");
    // XML 1.0's Char production excludes C0 controls but tab, LF and CR, and U+FFFE/U+FFFF; DEL and C1 are
    // allowed but invisible junk. Before, ESC went into the bank raw and no parser would read it.
    CHECK(escape_xml("T\x1b[31m") == "T\xEF\xBF\xBD[31m");
    CHECK(escape_xml(std::string_view("a\0b", 3)) == "a\xEF\xBF\xBD"
                                                     "b");
    CHECK(escape_xml("\xC2\x85|\xEF\xBF\xBF") == "\xEF\xBF\xBD|\xEF\xBF\xBD");
    CHECK(escape_xml("caf\xE9 <") == "caf\xEF\xBF\xBD &lt;");
}
