#pragma once
// The token that lets a student open their own variant (serve) and that their sheet prints (generate): an HMAC of
// their id keyed by the class seed, so it cannot be guessed from the id, and anyone holding the seed can recompute
// it. Defined here, in one place, because the sheet that prints it and the server that checks it must agree.

#include <string>
#include <string_view>

namespace headcount {

/// HMAC-SHA-256 of `message` under `key`, as 64 lower-case hex digits (Nettle's implementation).
std::string hmac_sha256_hex(std::string_view key, std::string_view message);

/// A student's token: the first 32 hex digits (128 bits) of HMAC-SHA-256 keyed by the class seed over the bytes
/// "headcount-token-v1" NUL <student id>.
std::string student_token(std::string_view seed, std::string_view student);

/// Whether `token` is `student`'s under `seed`, compared in constant time.
bool token_matches(std::string_view seed, std::string_view student, std::string_view token);

} // namespace headcount
