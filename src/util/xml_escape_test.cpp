#include <util/text.hpp>

#include <util/test_catch.hpp>

using headcount::escape_xml;
using headcount::xml_cdata;

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

TEST_CASE("a CDATA section carries markup as it is, and its end marker inside across two sections", "[text]") {
    CHECK(xml_cdata("<p><strong>b_O.</strong> &#92;(b_O\\)</p>") ==
          "<![CDATA[<p><strong>b_O.</strong> &#92;(b_O\\)</p>]]>");
    // "a]]>b" is "a]]" then ">b": each section is closed before the "]]>" could end it.
    CHECK(xml_cdata("a]]>b") == "<![CDATA[a]]]]><![CDATA[>b]]>");
    CHECK(xml_cdata("]]>]]>") == "<![CDATA[]]]]><![CDATA[>]]]]><![CDATA[>]]>");
    CHECK(xml_cdata("") == "<![CDATA[]]>");
    CHECK(xml_cdata("T\x1b[31m") == "<![CDATA[T\xEF\xBF\xBD[31m]]>");
}
