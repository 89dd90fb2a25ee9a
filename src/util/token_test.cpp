#include <util/token.hpp>

#include <util/test_catch.hpp>

using namespace headcount;

TEST_CASE("HMAC-SHA-256 matches RFC 4231's test vectors", "[token]") {
    // RFC 4231, test case 2: key "Jefe", data "what do ya want for nothing?".
    CHECK(hmac_sha256_hex("Jefe", "what do ya want for nothing?") ==
          "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    // RFC 4231, test case 1: key 0x0b x 20, data "Hi There".
    CHECK(hmac_sha256_hex(std::string(20, '\x0b'), "Hi There") ==
          "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    // RFC 4231, test case 3: key 0xaa x 20, data 0xdd x 50.
    CHECK(hmac_sha256_hex(std::string(20, '\xaa'), std::string(50, '\xdd')) ==
          "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
    // RFC 4231, test case 6: a key longer than SHA-256's 64-byte block is hashed first.
    CHECK(hmac_sha256_hex(std::string(131, '\xaa'), "Test Using Larger Than Block-Size Key - Hash Key First") ==
          "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

TEST_CASE("a student's token is keyed by the secret, scoped by the seed, and cannot be told from the id", "[token]") {
    const auto secret = TokenSecret::from(std::string(32, 'k'));
    REQUIRE(secret);
    const std::string alice = student_token(*secret, "fall-2026", "alice");
    CHECK(alice.size() == 32);
    // The recipe docs/operations.md gives, through the HMAC checked against RFC 4231 above.
    CHECK(alice ==
          hmac_sha256_hex(std::string(32, 'k'), std::string("headcount-token-v2\0fall-2026\0alice", 34)).substr(0, 32));
    // What a student can compute from their sheet (the seed and an id) is not the token: v1 keyed tokens by the
    // seed, which every sheet prints.
    CHECK(alice != hmac_sha256_hex("fall-2026", std::string("headcount-token-v1\0alice", 24)).substr(0, 32));
    CHECK(token_matches(*secret, "fall-2026", "alice", alice));
    CHECK_FALSE(token_matches(*secret, "fall-2026", "bob", alice));
    CHECK_FALSE(token_matches(*secret, "fall-2027", "alice", alice));
    CHECK_FALSE(token_matches(*TokenSecret::from(std::string(32, 'j')), "fall-2026", "alice", alice));
    CHECK_FALSE(token_matches(*secret, "fall-2026", "alice", alice.substr(0, 31)));
    CHECK_FALSE(token_matches(*secret, "fall-2026", "alice", ""));
}

TEST_CASE("a token secret has at least 32 bytes", "[token]") {
    CHECK_FALSE(TokenSecret::from(""));
    CHECK_FALSE(TokenSecret::from(std::string(31, 'x')));
    CHECK(TokenSecret::from(std::string(32, 'x')));
}
