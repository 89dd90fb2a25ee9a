#include "run_binary.hpp"

#include <fmt/format.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <util/test_catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace headcount::testing {

std::string source_dir() { return HEADCOUNT_SOURCE_DIR; }

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    INFO("reading " << path);
    REQUIRE(in.good());
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string fresh_temp_dir(const std::string& name) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("headcount-test-" + std::to_string(::getpid())) / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir.string();
}

std::string write_secret(const std::string& dir) {
    const std::string path = dir + "/secret";
    std::filesystem::remove(path);
    std::ofstream(path) << k_test_secret << "\n";
    std::filesystem::permissions(path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
    return path;
}

std::string openssl_token(const std::string& secret, const std::string& seed, const std::string& student) {
    const std::string message = std::string("headcount-token-v2") + '\0' + seed + '\0' + student;
    unsigned char digest[32];
    unsigned int length = 0;
    HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
         reinterpret_cast<const unsigned char*>(message.data()), message.size(), digest, &length);
    std::string token;
    for (unsigned int i = 0; i < 16; ++i)
        token += fmt::format("{:02x}", digest[i]);
    return token;
}

RunResult run_headcount(const std::vector<std::string>& args, const std::string& input, const std::string& cwd) {
    const std::string dir = fresh_temp_dir("run");
    const std::string in_path = dir + "/stdin", out_path = dir + "/stdout", err_path = dir + "/stderr";
    std::ofstream(in_path, std::ios::binary) << input;

    std::fflush(stdout); // or the child would flush a copy of our buffered output too
    std::fflush(stderr);
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        if (::chdir(cwd.empty() ? HEADCOUNT_SOURCE_DIR : cwd.c_str()) != 0 ||
            !::freopen(in_path.c_str(), "rb", stdin) || !::freopen(out_path.c_str(), "wb", stdout) ||
            !::freopen(err_path.c_str(), "wb", stderr))
            ::_exit(127);
        std::vector<char*> argv;
        std::string binary = HEADCOUNT_BINARY;
        argv.push_back(binary.data());
        std::vector<std::string> copies = args;
        for (std::string& a : copies)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        ::execv(binary.c_str(), argv.data());
        ::_exit(127);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    RunResult result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    result.out = read_text(out_path);
    result.err = read_text(err_path);
    return result;
}

} // namespace headcount::testing
