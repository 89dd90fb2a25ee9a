#pragma once
// The token that lets a student open their own variant (serve) and that their sheet prints (generate): an HMAC of
// the class seed and their id, keyed by the instructor's token secret. The seed only picks numbers and is printed
// on every sheet; the secret never leaves the instructor's file (secret.hpp), so a student who knows the seed and
// a classmate's id still cannot make the classmate's token. Defined here, in one place, because the sheet that
// prints it and the server that checks it must agree.

#include <optional>
#include <string>
#include <string_view>

namespace headcount {

/// HMAC-SHA-256 of `message` under `key`, as 64 lower-case hex digits (Nettle's implementation).
std::string hmac_sha256_hex(std::string_view key, std::string_view message);

/// The fewest bytes a token secret may have: 256 bits, as the 32 random bytes headcount generates.
inline constexpr std::size_t k_min_secret_bytes = 32;

/// A key for students' tokens, at least k_min_secret_bytes long. It has no accessor and no formatter: the only
/// thing done with it is keying the HMAC, so it cannot end up in an output, a page or a log by accident.
class TokenSecret {
  public:
    /// `key` as a secret, or nullopt when it is shorter than k_min_secret_bytes.
    [[nodiscard]] static std::optional<TokenSecret> from(std::string key) {
        if (key.size() < k_min_secret_bytes)
            return std::nullopt;
        return TokenSecret(std::move(key));
    }

  private:
    explicit TokenSecret(std::string key) : m_key(std::move(key)) {}
    std::string m_key;
    friend std::string student_token(const TokenSecret& secret, std::string_view seed, std::string_view student);
};

/// A student's token: the first 32 hex digits (128 bits) of HMAC-SHA-256 keyed by the secret over the bytes
/// "headcount-token-v2" NUL <seed> NUL <student id>.
std::string student_token(const TokenSecret& secret, std::string_view seed, std::string_view student);

/// Whether `token` is `student`'s under `secret` and `seed`, compared in constant time.
bool token_matches(const TokenSecret& secret, std::string_view seed, std::string_view student, std::string_view token);

} // namespace headcount
