// `headcount serve` with a limit on each part's checks (issue 24, item 8): a rounded verdict says when a guess's
// leading figures are right, so unlimited checks give a student their exact answer a digit at a time. A spec's
// `attempts:` (or serve --attempts) bounds that; the count is shown to the student and kept across a restart.
#include "run_binary.hpp"
#include "serve_process.hpp"

#include <httplib.h>
#include <nlohmann/json.hpp>
#include <util/test_catch.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>

using headcount::testing::fresh_temp_dir;
using headcount::testing::ServeProcess;
using nlohmann::json;

namespace {

/// Week 3 with `attempts: 3` on part (b), in DIR/week3.yaml.
std::string limited_spec(const std::string& dir) {
    std::string text =
        headcount::testing::read_text(headcount::testing::source_dir() + "/problems/week3-mha-params.yaml");
    const auto at = text.find("ask: total_params");
    REQUIRE(at != std::string::npos);
    const auto line_start = text.rfind('\n', at) + 1;
    const std::string indent = text.substr(line_start, at - line_start);
    text.insert(text.find('\n', at) + 1, indent + "attempts: 3\n");
    std::ofstream(dir + "/week3.yaml") << text;
    return dir + "/week3.yaml";
}

struct Class {
    std::string dir, spec, roster, secret, log;
};

Class make_class(const std::string& name) {
    Class c;
    c.dir = fresh_temp_dir(name);
    c.spec = limited_spec(c.dir);
    c.roster = c.dir + "/roster.csv";
    std::ofstream(c.roster) << "student\nalice\nbob\n";
    c.secret = headcount::testing::write_secret(fresh_temp_dir(name + "-secret"));
    c.log = c.dir + "/attempts.jsonl";
    return c;
}

httplib::Result check_as(int port, const std::string& student, const std::string& part, const std::string& answer) {
    const json body{
        {"problem", "week3-mha-params"},
        {"part", part},
        {"answer", answer},
        {"student", student},
        {"token", headcount::testing::openssl_token(headcount::testing::k_test_secret, "fall-2026", student)}};
    return httplib::Client("127.0.0.1", port).Post("/api/check", body.dump(), "application/json");
}

} // namespace

TEST_CASE("serve counts a student's checks of a part against its attempts: and says how many are left",
          "[e2e][serve][attempts]") {
    const Class c = make_class("attempts");
    const std::vector<std::string> args{c.spec,     "--seed", "fall-2026", "--roster", c.roster,
                                        "--secret", c.secret, "--log",     c.log};
    {
        ServeProcess server(args);
        // Three different wrong numbers use the three checks; the page and each reply say what is left.
        for (int i = 1; i <= 3; ++i) {
            auto res = check_as(server.port(), "alice", "b", std::to_string(i));
            REQUIRE(res);
            CHECK(res->status == 200);
            CHECK(json::parse(res->body)["checks_left"] == 3 - i);
            CHECK(json::parse(res->body)["checks_allowed"] == 3);
        }
        // A repeat tells nothing new and costs nothing; an unreadable answer neither.
        auto repeat = check_as(server.port(), "alice", "b", "2");
        CHECK(repeat->status == 200);
        CHECK(json::parse(repeat->body)["checks_left"] == 0);
        auto unreadable = check_as(server.port(), "alice", "b", "banana");
        CHECK(unreadable->status == 200);
        CHECK(json::parse(unreadable->body)["status"] == "unreadable");
        // The fourth number is refused, with why.
        auto fourth = check_as(server.port(), "alice", "b", "1050624");
        REQUIRE(fourth);
        CHECK(fourth->status == 403);
        CHECK(json::parse(fourth->body) == json{{"error", "You have used all 3 checks of part (b); your answers are "
                                                          "recorded. Ask your instructor if you need more."},
                                                {"checks_left", 0},
                                                {"checks_allowed", 3}});
        // Part (a) has no limit, and bob has his own three.
        auto a = check_as(server.port(), "alice", "a", "5");
        CHECK(a->status == 200);
        CHECK_FALSE(json::parse(a->body).contains("checks_left"));
        CHECK(json::parse(check_as(server.port(), "bob", "b", "1")->body)["checks_left"] == 2);

        // The form says so too, without JavaScript and in the fragment the script asks for.
        const std::string identity =
            "student=alice&token=" +
            headcount::testing::openssl_token(headcount::testing::k_test_secret, "fall-2026", "alice");
        httplib::Client client("127.0.0.1", server.port());
        auto page = client.Get(("/p/week3-mha-params?" + identity).c_str());
        REQUIRE(page);
        CHECK(page->body.find("0 of 3 checks left for this part.") != std::string::npos);
        auto bob_page =
            client.Get(("/p/week3-mha-params?student=bob&token=" +
                        headcount::testing::openssl_token(headcount::testing::k_test_secret, "fall-2026", "bob"))
                           .c_str());
        CHECK(bob_page->body.find("2 of 3 checks left for this part.") != std::string::npos);
        auto refused = client.Post("/p/week3-mha-params/check", identity + "&part=b&answer=77&fragment=1",
                                   "application/x-www-form-urlencoded");
        REQUIRE(refused);
        CHECK(refused->status == 403);
        CHECK(refused->body.find("You have used all 3 checks of part (b)") != std::string::npos);
        CHECK(server.stop(SIGTERM) == 0);
    }
    // A restart counts again from the log: alice still has none left, bob two.
    ServeProcess again(args);
    CHECK(check_as(again.port(), "alice", "b", "1050624")->status == 403);
    CHECK(json::parse(check_as(again.port(), "bob", "b", "9")->body)["checks_left"] == 1);
    // Counted again: alice's three and bob's one of (b); part (a) has no limit and is not remembered.
    CHECK(again.err().find("(4 counted so far)") != std::string::npos);
}

TEST_CASE("serve --attempts limits the parts whose spec sets none", "[e2e][serve][attempts]") {
    const Class c = make_class("attempts-flag");
    ServeProcess server({c.spec, "--seed", "fall-2026", "--roster", c.roster, "--secret", c.secret, "--attempts", "1"});
    // Part (a) takes the flag's 1; part (b) keeps the spec's 3.
    CHECK(json::parse(check_as(server.port(), "alice", "a", "1")->body)["checks_left"] == 0);
    CHECK(check_as(server.port(), "alice", "a", "2")->status == 403);
    CHECK(json::parse(check_as(server.port(), "alice", "b", "1")->body)["checks_left"] == 2);
}
