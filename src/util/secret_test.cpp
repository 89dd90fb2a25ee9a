#include <util/secret.hpp>

#include <util/test_catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace headcount;
namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("headcount-secret-test-" + std::to_string(::getpid())) / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

std::string read_all(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void write(const fs::path& path, const std::string& text, mode_t mode) {
    fs::remove(path);
    std::ofstream(path, std::ios::binary) << text;
    ::chmod(path.c_str(), mode);
}

std::string error_of(const fs::path& path, bool create = false) {
    auto loaded = load_token_secret(path, create);
    REQUIRE_FALSE(loaded);
    return loaded.error().to_string();
}

} // namespace

TEST_CASE("the first command that needs a token secret makes one: 256 random bits, private", "[secret]") {
    const fs::path dir = fresh_dir("create") / "headcount";
    const fs::path path = dir / "token-secret";
    auto made = load_token_secret(path, true);
    REQUIRE(made);
    CHECK(made->source == SecretSource::created);
    struct stat info {};
    REQUIRE(::stat(path.c_str(), &info) == 0);
    CHECK((info.st_mode & 0777) == 0600);
    REQUIRE(::stat(dir.c_str(), &info) == 0);
    CHECK((info.st_mode & 0777) == 0700);
    const std::string text = read_all(path);
    REQUIRE(text.size() == 65);
    CHECK(text.back() == '\n');
    CHECK(text.find_first_not_of("0123456789abcdef") == 64);

    // The next command reads the same secret: the same tokens.
    auto again = load_token_secret(path, true);
    REQUIRE(again);
    CHECK(again->source == SecretSource::read);
    CHECK(student_token(again->secret, "s", "alice") == student_token(made->secret, "s", "alice"));
    // Keyed by the file's text without its newline, as docs/operations.md says (so `openssl rand -hex 32 > FILE` works
    // too).
    CHECK(student_token(made->secret, "s", "alice") ==
          hmac_sha256_hex(text.substr(0, 64), std::string("headcount-token-v2\0s\0alice", 26)).substr(0, 32));

    // Two classes' secrets differ (256 bits from the kernel's CSPRNG, not a clock or a counter).
    auto other = load_token_secret(fresh_dir("create-2") / "token-secret", true);
    REQUIRE(other);
    CHECK(student_token(other->secret, "s", "alice") != student_token(made->secret, "s", "alice"));
}

TEST_CASE("a token secret that is missing, short, shared or not a file is refused, never quoted", "[secret]") {
    const fs::path dir = fresh_dir("refuse");
    CHECK(error_of(dir / "none") == (dir / "none").string() +
                                        ": there is no token secret here: run generate --serve-url or serve with a "
                                        "roster to have one made, or give the file with --secret");
    write(dir / "short", std::string(31, 'q') + "\n", 0600);
    const std::string short_error = error_of(dir / "short");
    CHECK(short_error == (dir / "short").string() +
                             ": the token secret is 31 bytes; it must be at least 32 (delete the file to have a new "
                             "one made, which changes every student's link)");
    CHECK(short_error.find("qqq") == std::string::npos);
    write(dir / "empty", "", 0600);
    CHECK(error_of(dir / "empty").find("the token secret is 0 bytes") != std::string::npos);
    // Only the one line break that ends the file is not the key: "   \n" is 4 bytes.
    write(dir / "blank", "   \n\n", 0600);
    CHECK(error_of(dir / "blank").find("the token secret is 4 bytes") != std::string::npos);
    write(dir / "shared", std::string(64, 'a'), 0644);
    CHECK(error_of(dir / "shared") == (dir / "shared").string() +
                                          ": the token secret can be read or changed by other users (mode 0644): "
                                          "make it private with chmod 600");
    write(dir / "group", std::string(64, 'a'), 0640);
    CHECK(error_of(dir / "group").find("(mode 0640)") != std::string::npos);
    write(dir / "big", std::string(5000, 'a'), 0600);
    CHECK(error_of(dir / "big").find("larger than 4,096 bytes") != std::string::npos);
    CHECK(error_of(dir).find("must be a regular file") != std::string::npos);
    CHECK(error_of("/dev/zero").find("must be a regular file") != std::string::npos);
    write(dir / "good", std::string(64, 'a'), 0600);
    fs::create_symlink(dir / "good", dir / "link");
    CHECK(error_of(dir / "link") ==
          (dir / "link").string() + ": the token secret is a symbolic link: give the file itself");
    // Exactly 32 bytes, with a newline after them, is enough.
    write(dir / "exact", std::string(32, 'z') + "\n", 0600);
    CHECK(load_token_secret(dir / "exact", false));
    // A missing file is made only when asked.
    CHECK_FALSE(fs::exists(dir / "none"));
}

TEST_CASE("a secret's bytes are all key but the line break that ends the file", "[secret]") {
    const fs::path dir = fresh_dir("bytes");
    write(dir / "lf", std::string(32, 'a') + "\n", 0600);
    write(dir / "crlf", std::string(32, 'a') + "\r\n", 0600);
    write(dir / "space", std::string(32, 'a') + " \n", 0600);
    const auto token = [&](const char* name) {
        return student_token(load_token_secret(dir / name, false)->secret, "s", "a");
    };
    // Keyed by exactly 32 'a's, as HMAC-SHA-256 (checked against RFC 4231 in token_test) gives it.
    const std::string expected =
        hmac_sha256_hex(std::string(32, 'a'), std::string("headcount-token-v2\0s\0a", 22)).substr(0, 32);
    CHECK(token("lf") == expected);
    CHECK(token("crlf") == expected);
    // A trailing space is part of a binary secret.
    CHECK(token("space") != expected);
}

TEST_CASE("a secret that belongs to someone else is refused, though only its owner can read it", "[secret]") {
    if (::geteuid() != 0)
        return; // only root can give a file away; as anyone else the mode check already covers it
    const fs::path dir = fresh_dir("owner");
    write(dir / "theirs", std::string(64, 'a'), 0600);
    REQUIRE(::chown((dir / "theirs").c_str(), 65534, 65534) == 0);
    CHECK(error_of(dir / "theirs") ==
          (dir / "theirs").string() + ": the token secret belongs to another user: use a file of your own");
}

TEST_CASE("commands that make the secret at once agree on one, and none sees it half-written", "[secret]") {
    for (int trial = 0; trial < 20; ++trial) {
        const fs::path path = fresh_dir("race-" + std::to_string(trial)) / "headcount" / "token-secret";
        std::vector<pid_t> children;
        for (int i = 0; i < 4; ++i) {
            const pid_t pid = ::fork();
            REQUIRE(pid >= 0);
            if (pid == 0) {
                auto loaded = load_token_secret(path, true);
                // Each child writes the token it computed beside the secret, for the parent to compare.
                if (loaded)
                    std::ofstream(path.string() + ".token-" + std::to_string(i))
                        << student_token(loaded->secret, "s", "alice");
                ::_exit(loaded ? 0 : 1);
            }
            children.push_back(pid);
        }
        int failed = 0;
        for (const pid_t pid : children) {
            int status = 0;
            ::waitpid(pid, &status, 0);
            failed += WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
        }
        CHECK(failed == 0);
        const std::string first = read_all(path.string() + ".token-0");
        CHECK(first.size() == 32);
        for (int i = 1; i < 4; ++i)
            CHECK(read_all(path.string() + ".token-" + std::to_string(i)) == first);
        // No temporary file is left beside it.
        std::size_t files = 0;
        for (const auto& entry : fs::directory_iterator(path.parent_path()))
            files += entry.path().filename().string().starts_with("token-secret.new") ? 1 : 0;
        CHECK(files == 0);
    }
}

TEST_CASE("the default secret lives under XDG_CONFIG_HOME, else HOME/.config", "[secret]") {
    const char* saved_xdg = std::getenv("XDG_CONFIG_HOME");
    const std::string xdg = saved_xdg ? saved_xdg : "";
    ::setenv("XDG_CONFIG_HOME", "/somewhere/config", 1);
    CHECK(default_secret_path().value() == fs::path("/somewhere/config/headcount/token-secret"));
    ::unsetenv("XDG_CONFIG_HOME");
    const char* home = std::getenv("HOME");
    if (home != nullptr && home[0] == '/')
        CHECK(default_secret_path().value() == fs::path(home) / ".config/headcount/token-secret");
    if (saved_xdg)
        ::setenv("XDG_CONFIG_HOME", xdg.c_str(), 1);
}
