#pragma once
// The top of a student's problem sheet: whose numbers these are, under which seed, and how the student checks an
// answer: their personal `headcount serve` link when the instructor runs one, else the `check` command.

#include <render/templates.hpp>
#include <util/token.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace headcount::generate {

/// The sheet's header (templates/sheet_header.mustache): the student's id, the seed's name, and the serve link
/// (serve_link, keyed by `secret`) when `serve_url` is not empty, else the `headcount check --seed S --student ID`
/// command. Precondition: `secret` is not null when `serve_url` is not empty.
Result<std::string> sheet_header(const std::string& student, const std::string& seed, const std::string& serve_url,
                                 const TokenSecret* secret, const render::TemplateSet& templates);

/// A student's link to `headcount serve` at `base`: {base}/?student={id, percent-encoded}&token={student_token}.
/// A trailing '/' of `base` is dropped first.
std::string serve_link(std::string_view base, const TokenSecret& secret, std::string_view seed,
                       std::string_view student);

/// `text` percent-encoded for a URL's query (RFC 3986): all but A-Z a-z 0-9 - . _ ~ as %XX, upper-case hex.
std::string percent_encode(std::string_view text);

/// Why `base` cannot be printed as a serve URL (not http:// or https://, no host, spaces, quotes, angle brackets,
/// a query or fragment of its own, over 200 bytes), or nullopt when it can.
std::optional<std::string> serve_url_problem(std::string_view base);

} // namespace headcount::generate
