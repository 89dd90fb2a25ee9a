// The one Catch2 main for headcount_tests: unit tests sit beside the code (src/**/*_test.cpp), end-to-end tests
// that run the built binary sit in tests/.
#define CATCH_CONFIG_RUNNER
#include <util/test_catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

int main(int argc, char* argv[]) {
    // Every headcount the tests start keeps its default token secret (~/.config/headcount/token-secret) in a
    // folder of this test process, never in the home of whoever runs the tests.
    const std::filesystem::path config =
        std::filesystem::temp_directory_path() / ("headcount-test-" + std::to_string(::getpid())) / "config";
    ::setenv("XDG_CONFIG_HOME", config.c_str(), 1);
    return Catch::Session().run(argc, argv);
}
