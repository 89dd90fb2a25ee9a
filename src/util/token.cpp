#include <util/token.hpp>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <array>

namespace headcount {

std::string hmac_sha256_hex(std::string_view key, std::string_view message) {
    // An HMAC needs no configuration: without this OpenSSL 3 reads the system's openssl.cnf on first use, which
    // can name provider modules to load (shared objects that bring the shared libcrypto into a static headcount).
    static const bool initialised = OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG, nullptr) == 1;
    (void)initialised;
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int length = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(message.data()),
         message.size(), digest.data(), &length);
    static constexpr char k_hex[] = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < length; ++i) {
        out += k_hex[digest[i] >> 4];
        out += k_hex[digest[i] & 0xF];
    }
    return out;
}

std::string student_token(std::string_view seed, std::string_view student) {
    std::string message = "headcount-token-v1";
    message += '\0';
    message += student;
    return hmac_sha256_hex(seed, message).substr(0, 32);
}

bool token_matches(std::string_view seed, std::string_view student, std::string_view token) {
    const std::string expected = student_token(seed, student);
    return token.size() == expected.size() && CRYPTO_memcmp(expected.data(), token.data(), token.size()) == 0;
}

} // namespace headcount
