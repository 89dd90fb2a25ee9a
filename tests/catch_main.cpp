// The one Catch2 main for headcount_tests: unit tests sit beside the code (src/**/*_test.cpp), end-to-end tests
// that run the built binary sit in tests/.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
