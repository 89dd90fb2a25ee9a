#include <util/token.hpp>

#include <nettle/hmac.h>
#include <nettle/memops.h>

#include <array>
#include <cstdint>

namespace headcount {

std::string hmac_sha256_hex(std::string_view key, std::string_view message) {
    hmac_sha256_ctx context;
    hmac_sha256_set_key(&context, key.size(), reinterpret_cast<const std::uint8_t*>(key.data()));
    hmac_sha256_update(&context, message.size(), reinterpret_cast<const std::uint8_t*>(message.data()));
    std::array<std::uint8_t, SHA256_DIGEST_SIZE> digest{};
    hmac_sha256_digest(&context, digest.size(), digest.data());
    static constexpr char k_hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(2 * digest.size());
    for (const std::uint8_t byte : digest) {
        out += k_hex[byte >> 4];
        out += k_hex[byte & 0xF];
    }
    return out;
}

std::string student_token(const TokenSecret& secret, std::string_view seed, std::string_view student) {
    std::string message = "headcount-token-v2";
    message += '\0';
    message += seed;
    message += '\0';
    message += student;
    return hmac_sha256_hex(secret.m_key, message).substr(0, 32);
}

bool token_matches(const TokenSecret& secret, std::string_view seed, std::string_view student, std::string_view token) {
    const std::string expected = student_token(secret, seed, student);
    return token.size() == expected.size() && memeql_sec(expected.data(), token.data(), token.size()) != 0;
}

} // namespace headcount
