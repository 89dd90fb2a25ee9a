#include <util/token.hpp>

#include <catch2/catch.hpp>

using namespace headcount;

TEST_CASE("HMAC-SHA-256 matches RFC 4231's test vectors", "[token]") {
    // RFC 4231, test case 2: key "Jefe", data "what do ya want for nothing?".
    CHECK(hmac_sha256_hex("Jefe", "what do ya want for nothing?") ==
          "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    // RFC 4231, test case 1: key 0x0b x 20, data "Hi There".
    CHECK(hmac_sha256_hex(std::string(20, '\x0b'), "Hi There") ==
          "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
}

TEST_CASE("a student's token is keyed by the seed and cannot be told from the id", "[token]") {
    const std::string alice = student_token("fall-2026", "alice");
    CHECK(alice.size() == 32);
    CHECK(alice == hmac_sha256_hex("fall-2026", std::string("headcount-token-v1\0alice", 24)).substr(0, 32));
    CHECK(token_matches("fall-2026", "alice", alice));
    CHECK_FALSE(token_matches("fall-2026", "bob", alice));
    CHECK_FALSE(token_matches("fall-2027", "alice", alice));
    CHECK_FALSE(token_matches("fall-2026", "alice", alice.substr(0, 31)));
    CHECK_FALSE(token_matches("fall-2026", "alice", ""));
}
