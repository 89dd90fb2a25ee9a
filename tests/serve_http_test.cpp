// End-to-end tests of `headcount serve` over HTTP, through cpp-httplib's client and raw sockets: status codes, the
// JSON API's shape, the caps and rate limits, traversal attempts, identity, and a drain on SIGTERM.
#include "run_binary.hpp"
#include "serve_process.hpp"

#include <grade/attempt_lines.hpp>
#include <serve/attempt_log.hpp>
#include <util/token.hpp>

#include <httplib.h>
#include <nlohmann/json.hpp>
#include <util/test_catch.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using headcount::testing::raw_exchange;
using headcount::testing::read_text;
using headcount::testing::run_headcount;
using headcount::testing::ServeProcess;
using nlohmann::json;

namespace {

const std::string k_week3 = "problems/week3-mha-params.yaml";

httplib::Result post_check(int port, const json& body) {
    httplib::Client client("127.0.0.1", port);
    return client.Post("/api/check", body.dump(), "application/json");
}

/// A roster of alice and bob, and its path.
std::string roster(const std::string& name) {
    const std::string path = headcount::testing::fresh_temp_dir(name) + "/roster.csv";
    std::ofstream(path) << "student,name\nalice,Alice A.\nbob,Bob B.\n";
    return path;
}

/// The file of the tests' token secret (k_test_secret), in a folder of its own.
std::string secret(const std::string& name) {
    return headcount::testing::write_secret(headcount::testing::fresh_temp_dir(name + "-secret"));
}

/// A student's token under the tests' secret, computed with OpenSSL from the recipe in docs/operations.md.
std::string token_of(const std::string& seed, const std::string& student) {
    return headcount::testing::openssl_token(headcount::testing::k_test_secret, seed, student);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// Serve's verdict on `answer` to `part` of problem `id` (in `spec`) is check --format json's, exactly.
void checks_as_check_does(int port, const std::string& spec, const std::string& id, const std::string& part,
                          const std::string& answer) {
    auto res = post_check(port, {{"problem", id}, {"part", part}, {"answer", answer}});
    REQUIRE(res);
    CHECK(res->status == 200);
    const auto cli = run_headcount({"check", spec, "--part", part, "--answer", answer, "--format", "json"});
    CHECK(json::parse(res->body) == json::parse(cli.out));
}

} // namespace

TEST_CASE("serve answers a check with what check --format json prints", "[e2e][serve]") {
    ServeProcess server({"problems"});
    for (const std::string answer : {"1048576", "1,050,624", "1.05M", "banana", "4 \\times 512 \\times 513"}) {
        INFO(answer);
        auto res = post_check(server.port(), {{"problem", "week3-mha-params"}, {"part", "b"}, {"answer", answer}});
        REQUIRE(res);
        CHECK(res->status == 200);
        CHECK(res->get_header_value("Content-Type") == "application/json");
        CHECK(res->get_header_value("Cache-Control") == "no-store");
        const auto cli = run_headcount({"check", k_week3, "--part", "b", "--answer", answer, "--format", "json"});
        CHECK(json::parse(res->body) == json::parse(cli.out));
    }
    // The shape a client can rely on, for a named mistake (4 x 512^2: the biases left out).
    const json body = json::parse(
        post_check(server.port(), {{"problem", "week3-mha-params"}, {"part", "b"}, {"answer", "1048576"}})->body);
    CHECK(body["status"] == "incorrect");
    CHECK(body["correct"] == false);
    CHECK(body["points"] == 3.0);
    CHECK(body["mistakes"][0]["id"] == "missing_biases");
    CHECK(body["feedback_policy"] == "hints");
    CHECK_FALSE(body.contains("expected"));
}

TEST_CASE("serve checks a quantity the spec defines as check does, and its page asks for it", "[e2e][serve]") {
    ServeProcess server({"problems/training-compute.yaml"});
    // 5.14 days: mfu multiplied where it divides (25.3588 x 0.45^2 = 5.1352); 608.6 hours: right (25.358 days).
    for (const std::string answer : {"5.14", "608.6 hours", "3.15e23"}) {
        INFO(answer);
        const std::string part = answer == "3.15e23" ? "a" : "b";
        checks_as_check_does(server.port(), "problems/training-compute.yaml", "gpt3-compute", part, answer);
    }
    const json body =
        json::parse(post_check(server.port(), {{"problem", "gpt3-compute"}, {"part", "b"}, {"answer", "5.14"}})->body);
    CHECK(body["mistakes"][0]["id"] == "factor_inverted_mfu");
    CHECK_FALSE(contains(body.dump(), "25.3"));
    httplib::Client client("127.0.0.1", server.port());
    auto page = client.Get("/p/gpt3-compute");
    REQUIRE(page);
    CHECK(contains(page->body, "What is the training time, in days?"));
}

// problems/week-formulas.yaml derives each formula in its header: one GPT-2 layer is 4d^2 + 2 d d_ff + 9d + d_ff, and
// its weights in fp16 are twice the model's count, so the count itself is bytes_per_value_missing.
TEST_CASE("serve checks a formula answer as check does and the same the second time", "[e2e][serve]") {
    ServeProcess server({"problems/week-formulas.yaml"});
    const std::string model = "layers*(4*d_model^2 + 2*d_model*d_ff + 9*d_model + d_ff) + d_model*(vocab + "
                              "max_positions + 2)";
    // Each twice: the second check reads the part's table the server made at the first.
    for (int round = 0; round < 2; ++round)
        for (const auto& [part, answer] : {std::pair<std::string, std::string>{"a", "4 d_{model}^2 + 2 d_{model} "
                                                                                    "d_{ff} + 9 d_{model} + d_{ff}"},
                                           {"a", "4*d_model^2"},
                                           {"d", model},
                                           {"d", "dmodel"}}) {
            INFO(part << ": " << answer);
            checks_as_check_does(server.port(), "problems/week-formulas.yaml", "week-formulas", part, answer);
        }
    const json body =
        json::parse(post_check(server.port(), {{"problem", "week-formulas"}, {"part", "d"}, {"answer", model}})->body);
    CHECK(body["mistakes"][0]["id"] == "bytes_per_value_missing");
}

TEST_CASE("serve's pages, problem list and health check", "[e2e][serve]") {
    ServeProcess server({"problems"});
    httplib::Client client("127.0.0.1", server.port());
    auto home = client.Get("/");
    REQUIRE(home);
    CHECK(home->status == 200);
    CHECK(home->get_header_value("Content-Type") == "text/html; charset=utf-8");
    CHECK(contains(home->get_header_value("Content-Security-Policy"), "script-src 'self'"));
    CHECK(home->get_header_value("Referrer-Policy") == "no-referrer");
    CHECK(contains(home->body, "href=\"/p/week3-mha-params\""));

    auto page = client.Get("/p/week3-mha-params");
    REQUIRE(page);
    CHECK(page->status == 200);
    CHECK(contains(page->body, "<form class=\"check\" method=\"post\" action=\"/p/week3-mha-params/check#part-b\""));
    CHECK(contains(page->body, "<td>$d_{model}$</td><td>model width (input and output of the block)</td>"
                               "<td class=\"num\">512</td>"));
    CHECK(client.Get("/p/no-such-problem")->status == 404);
    CHECK(client.Get("/nothing/here")->status == 404);

    auto problems = client.Get("/api/problems");
    REQUIRE(problems);
    const json list = json::parse(problems->body);
    std::size_t specs = 0;
    for (const auto& entry : std::filesystem::directory_iterator(headcount::testing::source_dir() + "/problems"))
        specs += entry.path().extension() == ".yaml" ? 1 : 0;
    CHECK(list["problems"].size() == specs);
    CHECK(list["identified"] == false);
    for (const json& problem : list["problems"])
        if (problem["id"] == "week3-mha-params")
            CHECK(problem["parts"] == json::parse(R"([{"id":"a","ask":"qkv_params","unit":"parameters","points":2.0,)"
                                                  R"("feedback_policy":"hints"},{"id":"b","ask":"total_params",)"
                                                  R"("unit":"parameters","points":3.0,"feedback_policy":"hints"}])"));
    auto health = client.Get("/healthz");
    REQUIRE(health);
    CHECK(json::parse(health->body) == json{{"status", "ok"}});
    auto css = client.Get("/static/headcount.css");
    REQUIRE(css);
    CHECK(css->status == 200);
    CHECK(css->get_header_value("Content-Type") == "text/css; charset=utf-8");
    auto font = client.Get("/static/katex/fonts/KaTeX_Main-Regular.woff2");
    REQUIRE(font);
    CHECK(font->status == 200);
    CHECK(font->body.size() ==
          std::filesystem::file_size("/usr/share/javascript/katex/fonts/KaTeX_Main-Regular.woff2"));
}

TEST_CASE("serve's API refuses malformed checks with a reason", "[e2e][serve]") {
    ServeProcess server({"problems"});
    httplib::Client client("127.0.0.1", server.port());
    const auto status_and_error = [&](const std::string& body, const std::string& type = "application/json") {
        auto res = client.Post("/api/check", body, type.c_str());
        REQUIRE(res);
        return std::pair{res->status, json::parse(res->body).value("error", std::string())};
    };
    CHECK(status_and_error("{not json") == std::pair{400, std::string("The request body is not JSON.")});
    CHECK(status_and_error("[1]") == std::pair{400, std::string("The request body is not a JSON object.")});
    CHECK(status_and_error(R"({"problem":"week3-mha-params","part":"b"})") ==
          std::pair{400, std::string("'answer' is missing: send problem, part and answer.")});
    CHECK(status_and_error(R"({"problem":"week3-mha-params","part":"b","answer":1048576})") ==
          std::pair{400, std::string("'answer' must be a string.")});
    CHECK(status_and_error(R"({"problem":"nope","part":"b","answer":"1"})") ==
          std::pair{404, std::string("There is no problem 'nope' here.")});
    CHECK(status_and_error(R"({"problem":"week3-mha-params","part":"c","answer":"1"})") ==
          std::pair{404, std::string("Problem 'week3-mha-params' has no part 'c'; its parts are: a, b.")});
    CHECK(status_and_error(R"({"problem":"week3-mha-params","part":"b","answer":"1"})", "text/plain").first == 415);
    CHECK(status_and_error("{\"problem\":\"week3-mha-params\",\"part\":\"b\",\"answer\":\"\xff\"}").first == 400);
    auto put = client.Put("/api/check", "{}", "application/json");
    REQUIRE(put);
    CHECK(put->status == 405);
    CHECK(put->get_header_value("Allow") == "GET, HEAD, POST");
}

TEST_CASE("serve caps answers, bodies and headers with 413 and 431, and refuses unbounded bodies", "[e2e][serve]") {
    ServeProcess server({"problems"});
    // An answer of 1,025 bytes: over the 1,024-byte cap.
    auto long_answer =
        post_check(server.port(), {{"problem", "week3-mha-params"}, {"part", "b"}, {"answer", std::string(1025, '1')}});
    REQUIRE(long_answer);
    CHECK(long_answer->status == 413);
    CHECK(json::parse(long_answer->body)["error"] ==
          "This answer is 1,025 bytes long; answers are at most 1,024 bytes.");
    // A body over 8 KiB is refused before it is read, with the limit in the reason.
    auto big = post_check(
        server.port(),
        {{"problem", "week3-mha-params"}, {"part", "b"}, {"answer", "1"}, {"padding", std::string(20000, 'x')}});
    REQUIRE(big);
    CHECK(big->status == 413);
    CHECK(contains(big->body, "requests are at most 8,192 bytes"));
    CHECK(big->get_header_value("Connection") == "close");

    const std::string head = "POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n";
    const std::string chunked =
        raw_exchange(server.port(), head + "Transfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":\r\n0\r\n\r\n");
    CHECK(chunked.starts_with("HTTP/1.1 411 "));
    const std::string gzip =
        raw_exchange(server.port(), head + "Content-Encoding: gzip\r\nContent-Length: 4\r\n\r\nabcd");
    CHECK(gzip.starts_with("HTTP/1.1 415 "));
    CHECK(contains(gzip, "Compressed request bodies are not accepted."));
    const std::string headers =
        raw_exchange(server.port(), "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(20000, 'a') + "\r\n\r\n");
    CHECK(headers.starts_with("HTTP/1.1 431 "));
    // A request line without an end is cut off at the budget rather than buffered.
    const std::string endless = raw_exchange(server.port(), "GET /" + std::string(200000, 'a'));
    CHECK(endless.starts_with("HTTP/1.1 4"));
    // The server is still there.
    CHECK(httplib::Client("127.0.0.1", server.port()).Get("/healthz")->status == 200);
}

TEST_CASE("serve limits checks per address and per student with 429 and Retry-After", "[e2e][serve]") {
    SECTION("per address: 6 a minute, so one in a row and the next in 10 s") {
        ServeProcess server({"problems", "--address-rate", "6"});
        const json body{{"problem", "week3-mha-params"}, {"part", "b"}, {"answer", "1"}};
        CHECK(post_check(server.port(), body)->status == 200);
        auto limited = post_check(server.port(), body);
        REQUIRE(limited);
        CHECK(limited->status == 429);
        CHECK(limited->get_header_value("Retry-After") == "10");
        CHECK(json::parse(limited->body)["retry_after"] == 10);
        CHECK(json::parse(limited->body)["error"] == "Too many checks in a short time: try again in 10 seconds.");
        // Pages are not checks.
        CHECK(httplib::Client("127.0.0.1", server.port()).Get("/")->status == 200);
    }
    SECTION("per student: 3 a minute, so one in a row and the next in 20 s; another student is not held up") {
        const std::string seed = "spring";
        ServeProcess server({"problems", "--seed", seed, "--roster", roster("rate"), "--secret", secret("rate"),
                             "--student-rate", "3"});
        const auto as = [&](const std::string& student) {
            return json{{"problem", "week3-mha-params"},
                        {"part", "b"},
                        {"answer", "1"},
                        {"student", student},
                        {"token", token_of(seed, student)}};
        };
        CHECK(post_check(server.port(), as("alice"))->status == 200);
        auto limited = post_check(server.port(), as("alice"));
        REQUIRE(limited);
        CHECK(limited->status == 429);
        CHECK(limited->get_header_value("Retry-After") == "20");
        CHECK(post_check(server.port(), as("bob"))->status == 200);
    }
}

TEST_CASE("serve serves its own files only: no traversal, encoded or not", "[e2e][serve]") {
    ServeProcess server({"problems"});
    for (const std::string path :
         {"/static/../../../../etc/passwd", "/static/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/static/..%2f..%2fetc%2fpasswd",
          "/static/katex/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/static/%252e%252e/etc/passwd",
          "/static//etc/passwd", "/static/katex/fonts/../../../../../../etc/passwd", "/static/katex/katex.mjs",
          "/static/..\\..\\etc\\passwd", "/static/katex/fonts/", "/etc/passwd", "/../templates/solution.mustache",
          "/static/../problems/week3-mha-params.yaml"}) {
        INFO(path);
        const std::string response =
            raw_exchange(server.port(), "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        CHECK(response.starts_with("HTTP/1.1 404 "));
        CHECK_FALSE(contains(response, "root:"));
        CHECK_FALSE(contains(response, "d_model:"));
    }
}

TEST_CASE("serve refuses a link in the page folder at startup, and never reads one planted later", "[e2e][serve]") {
    namespace fs = std::filesystem;
    const fs::path templates = headcount::testing::fresh_temp_dir("link-templates");
    fs::copy(headcount::testing::source_dir() + "/templates", templates, fs::copy_options::recursive);
    fs::create_symlink("/etc/passwd", templates / "serve" / "static" / "passwd.css");
    const auto refused = run_headcount({"serve", k_week3, "--port", "0", "--templates", templates.string()});
    CHECK(refused.exit_code == 2);
    CHECK(contains(refused.err, "passwd.css: a symbolic link: copy the file into the folder instead"));

    fs::remove(templates / "serve" / "static" / "passwd.css");
    ServeProcess server({k_week3, "--templates", templates.string()});
    fs::create_symlink("/etc/passwd", templates / "serve" / "static" / "late.css");
    auto res = httplib::Client("127.0.0.1", server.port()).Get("/static/late.css");
    REQUIRE(res);
    CHECK(res->status == 404);
}

TEST_CASE("serve lets a student open only their own variant, with the token of their link", "[e2e][serve]") {
    const std::string seed = "fall-2026";
    ServeProcess server({"problems", "--seed", seed, "--roster", roster("tokens"), "--secret", secret("tokens")});
    httplib::Client client("127.0.0.1", server.port());
    const std::string alice = token_of(seed, "alice");
    const std::string bob = token_of(seed, "bob");

    // The landing link printed on the sheet: {base}/?student=ID&token=TOKEN.
    auto home = client.Get(("/?student=alice&token=" + alice).c_str());
    REQUIRE(home);
    CHECK(home->status == 200);
    CHECK(contains(home->body, "href=\"/p/week3-mha-params?student=alice&amp;token=" + alice + "\""));
    // Alice's numbers, as check --seed --student prints them.
    const auto cli = run_headcount(
        {"check", k_week3, "--seed", seed, "--student", "alice", "--part", "b", "--answer", "1", "--format", "json"});
    const json givens = json::parse(cli.out)["variant"]["givens"];
    auto page = client.Get(("/p/week3-mha-params?student=alice&token=" + alice).c_str());
    REQUIRE(page);
    CHECK(page->status == 200);
    CHECK(contains(page->body, "with the numbers for alice"));
    CHECK(contains(page->body, "<td class=\"num\">" + std::to_string(givens["d_model"].get<long>()) + "</td>"));

    // What a student can compute from a sheet: the seed is printed on every one, and it used to key the tokens.
    const std::string seed_keyed =
        headcount::hmac_sha256_hex(seed, std::string("headcount-token-v1\0bob", 22)).substr(0, 32);
    CHECK(client.Get(("/p/week3-mha-params?student=bob&token=" + seed_keyed).c_str())->status == 403);
    CHECK(post_check(server.port(), {{"problem", "week3-mha-params"},
                                     {"part", "b"},
                                     {"answer", "1"},
                                     {"student", "bob"},
                                     {"token", seed_keyed}})
              ->status == 403);
    CHECK(client
              .Get(("/p/week3-mha-params?student=bob&token=" + headcount::testing::openssl_token(seed, seed, "bob"))
                       .c_str())
              ->status == 403);
    CHECK_FALSE(contains(server.err(), headcount::testing::k_test_secret));

    std::string altered = alice;
    altered.back() = altered.back() == '0' ? '1' : '0';
    for (const std::string& query : std::vector<std::string>{
             "?student=alice&token=" + bob, "?student=bob&token=" + alice, "?student=alice",
             "?student=mallory&token=" + alice, "?token=" + alice, "?student=alice&token=" + altered}) {
        INFO(query);
        CHECK(client.Get(("/p/week3-mha-params" + query).c_str())->status == 403);
        CHECK(client.Get(("/" + query).c_str())->status == 403);
    }
    CHECK(client.Get("/")->status == 200); // a welcome that asks for the link
    auto wrong = post_check(
        server.port(),
        {{"problem", "week3-mha-params"}, {"part", "b"}, {"answer", "1"}, {"student", "alice"}, {"token", bob}});
    REQUIRE(wrong);
    CHECK(wrong->status == 403);
    auto anonymous = post_check(server.port(), {{"problem", "week3-mha-params"}, {"part", "b"}, {"answer", "1"}});
    CHECK(anonymous->status == 403);
    auto right = post_check(
        server.port(),
        {{"problem", "week3-mha-params"}, {"part", "b"}, {"answer", "1"}, {"student", "alice"}, {"token", alice}});
    REQUIRE(right);
    CHECK(right->status == 200);
    CHECK(json::parse(right->body)["student"] == "alice");
    CHECK_FALSE(contains(right->body, seed));
}

TEST_CASE("serve's forms work without JavaScript, and escape what students type", "[e2e][serve]") {
    ServeProcess server({"problems"});
    httplib::Client client("127.0.0.1", server.port());
    auto page = client.Post("/p/week3-mha-params/check", "part=b&answer=1048576", "application/x-www-form-urlencoded");
    REQUIRE(page);
    CHECK(page->status == 200);
    CHECK(contains(page->body, "<h1>Parameters of a multi-head attention block</h1>"));
    CHECK(contains(page->body, "name=\"answer\" type=\"text\" value=\"1048576\""));
    CHECK(contains(page->body, "<li><strong>The bias vectors were left out</strong> (<code>missing_biases</code>)."));
    auto fragment = client.Post("/p/week3-mha-params/check", "part=b&answer=1048576&fragment=1",
                                "application/x-www-form-urlencoded");
    REQUIRE(fragment);
    CHECK(fragment->body.starts_with("<div class=\"verdict incorrect\">"));
    CHECK_FALSE(contains(fragment->body, "<html"));

    auto hostile = client.Post("/p/week3-mha-params/check",
                               "part=b&answer=%3Cscript%3Ealert(1)%3C%2Fscript%3E%22%3E%3Cimg%20src%3Dx%3E",
                               "application/x-www-form-urlencoded");
    REQUIRE(hostile);
    CHECK_FALSE(contains(hostile->body, "<script>alert"));
    CHECK_FALSE(contains(hostile->body, "<img src=x>"));
    CHECK(contains(hostile->body, "value=\"&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x&gt;\""));
}

TEST_CASE("serve logs every check before answering, in a form grade can read", "[e2e][serve]") {
    const std::string dir = headcount::testing::fresh_temp_dir("attempts");
    const std::string seed = "fall-2026";
    ServeProcess server({k_week3, "--seed", seed, "--roster", roster("log"), "--secret", secret("log"), "--log",
                         dir + "/attempts.jsonl"});
    const std::string token = token_of(seed, "bob");
    std::vector<std::string> statuses;
    for (const std::string answer : {"12", "1048576"}) {
        auto res = post_check(
            server.port(),
            {{"problem", "week3-mha-params"}, {"part", "b"}, {"answer", answer}, {"student", "bob"}, {"token", token}});
        REQUIRE(res->status == 200);
        statuses.push_back(json::parse(res->body)["status"]);
    }
    // Read while the server runs: each line is there as soon as its response is.
    std::ifstream log(dir + "/attempts.jsonl");
    std::vector<std::string> answers;
    for (std::string line; std::getline(log, line);) {
        const auto row = headcount::grade::read_attempt_line(line);
        REQUIRE(row.has_value());
        CHECK(row->student == "bob");
        CHECK(row->problem == "week3-mha-params");
        CHECK(row->part == "b");
        CHECK(json::parse(line)["status"] == statuses.at(answers.size()));
        answers.push_back(row->answer);
    }
    CHECK(answers == std::vector<std::string>{"12", "1048576"});

    // grade reads the same file as submissions: bob's later attempt at (b) supersedes the first. Whether 1,048,576 is
    // right follows from bob's givens by hand: the block's total is 4 d_model^2 weights plus 4 d_model biases
    // when bias is true (../shared/seeds, week 3).
    const auto variant = json::parse(run_headcount({"check", k_week3, "--seed", seed, "--student", "bob", "--part", "b",
                                                    "--answer", "1", "--format", "json"})
                                         .out)["variant"]["givens"];
    const long d = variant["d_model"].get<long>();
    const long total = 4 * d * d + (variant["bias"].get<bool>() ? 4 * d : 0);
    const std::string b_score = total == 1048576 ? "3" : "0";
    const auto graded = run_headcount({"grade", k_week3, "--seed", seed, "--roster", roster("log-grade"),
                                       "--submissions", dir + "/attempts.jsonl", "--out", dir + "/out"});
    REQUIRE(graded.exit_code == 0);
    CHECK(graded.err == "headcount: 2 rows in: 1 graded, 0 rejected, 1 superseded; 1 student; wrote " + dir + "/out\n");
    CHECK(read_text(dir + "/out/gradebook.csv") ==
          "student,week3-mha-params/a,week3-mha-params/b,total,max\nbob,0," + b_score + "," + b_score + ",5\n");
    CHECK(contains(read_text(dir + "/out/results.jsonl"), "\"reason\":\"superseded by the answer on line 2\""));
}

TEST_CASE("grade reads an attempt log line by line, and says which lines it could not use", "[e2e][grade]") {
    const std::string dir = headcount::testing::fresh_temp_dir("attempts-hostile");
    std::ofstream(dir + "/attempts.jsonl")
        << R"({"time":"2026-11-22T09:15:02.345Z","student":"alice","problem":"week3-mha-params","part":"a",)"
        << R"("answer":"786,432","status":"incorrect","score":0,"points":2,"mistakes":[]})"
        << "\n\n"
        << R"({"student":null,"problem":"week3-mha-params","part":"b","answer":"1"})"
        << "\n"
        << "not json at all\n"
        << std::string(20000, 'x')
        << "\n"
        // The last line has no line break (a server killed mid-write leaves it so); it is still read.
        << R"j({"student":"alice","problem":"week3-mha-params","part":"b","answer":"4*(512^2+512)"})j";
    const auto run = run_headcount({"grade", k_week3, "--submissions", dir + "/attempts.jsonl", "--out", dir + "/out"});
    REQUIRE(run.exit_code == 0);
    // Week 3 by hand: (a) Q, K, V with biases is 3(512^2 + 512) = 787,968, so 786,432 (no biases) is wrong; (b) is
    // 4(512^2 + 512), typed as that expression. Line 2 is blank and not a row.
    CHECK(run.err == "headcount: 5 rows in: 2 graded, 3 rejected, 0 superseded; 1 student; wrote " + dir + "/out\n");
    CHECK(read_text(dir + "/out/gradebook.csv") ==
          "student,week3-mha-params/a,week3-mha-params/b,total,max\nalice,0,3,3,5\n");
    const std::string results = read_text(dir + "/out/results.jsonl");
    CHECK(contains(results, "line 3 is an anonymous attempt (the server ran without a roster)"));
    CHECK(contains(results, "line 4 is not JSON"));
    CHECK(contains(results, "line 5 is longer than 16 KiB"));
}

TEST_CASE("serve drains on SIGTERM: the request in flight is answered and logged, then it exits 0", "[e2e][serve]") {
    const std::string dir = headcount::testing::fresh_temp_dir("drain");
    ServeProcess server({k_week3, "--log", dir + "/attempts.jsonl"});
    const std::string body = R"({"problem":"week3-mha-params","part":"b","answer":"1048576"})";
    const int fd = headcount::testing::connect_loopback(server.port());
    const std::string head = "POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                             "Content-Length: " +
                             std::to_string(body.size()) + "\r\n\r\n";
    const std::string first = head + body.substr(0, 10);
    REQUIRE(::send(fd, first.data(), first.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(first.size()));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::kill(server.pid(), SIGTERM);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    // The server no longer accepts connections, but the request it had is still being read.
    CHECK_FALSE(httplib::Client("127.0.0.1", server.port()).Get("/healthz"));
    const std::string rest = body.substr(10);
    REQUIRE(::send(fd, rest.data(), rest.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(rest.size()));
    const std::string response = headcount::testing::read_until_closed(fd, 5000);
    ::close(fd);
    CHECK(response.starts_with("HTTP/1.1 200 OK"));
    CHECK(contains(response, "\"mistakes\":[{\"id\":\"missing_biases\""));
    CHECK(contains(response, "Connection: close"));
    CHECK(server.stop(0) == 0); // signal 0: only wait for the exit
    CHECK(contains(read_text(dir + "/attempts.jsonl"), "\"answer\":\"1048576\""));
}

TEST_CASE("serve closes a connection whose request stops arriving", "[e2e][serve]") {
    ServeProcess server({k_week3});
    const auto start = std::chrono::steady_clock::now();
    const std::string response = raw_exchange(server.port(), "GET / HTTP/1.1\r\nHost: x\r\n", 20000);
    const auto waited = std::chrono::steady_clock::now() - start;
    CHECK(response.starts_with("HTTP/1.1 408 "));
    CHECK(waited < std::chrono::seconds(12)); // the 5 s read timeout, well before the 20 s the test would wait
}

TEST_CASE("serve refuses to start without what it needs, with one line saying why", "[e2e][serve]") {
    const auto katex = run_headcount({"serve", k_week3, "--port", "0", "--katex", "/nonexistent"});
    CHECK(katex.exit_code == 2);
    CHECK(katex.err == "/nonexistent/katex.min.css: KaTeX is missing (install Debian's libjs-katex, or pass --katex "
                       "DIR)\n");
    const auto seed_alone = run_headcount({"serve", k_week3, "--seed", "x"});
    CHECK(seed_alone.exit_code == 2);
    // A secret anyone could guess is no secret: 9 bytes (the seed's length, say) are refused, and not quoted.
    const std::string dir = headcount::testing::fresh_temp_dir("short-secret-file");
    std::ofstream(dir + "/secret") << "fall-2026\n";
    std::filesystem::permissions(dir + "/secret",
                                 std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
    const auto short_secret = run_headcount({"serve", k_week3, "--port", "0", "--seed", "fall-2026", "--roster",
                                             roster("short-secret"), "--secret", dir + "/secret"});
    CHECK(short_secret.exit_code == 2);
    CHECK(short_secret.err == dir + "/secret: the token secret is 9 bytes; it must be at least 32 (delete the file to "
                                    "have a new one made, which changes every student's link)\n");
    ServeProcess first({k_week3});
    const auto taken = run_headcount({"serve", k_week3, "--port", std::to_string(first.port())});
    CHECK(taken.exit_code == 2);
    CHECK(contains(taken.err, "cannot listen on 127.0.0.1:" + std::to_string(first.port())));
}
