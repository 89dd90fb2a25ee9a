// The program headcount: the library and this main(), which only forwards (cli/app.hpp).
#include <cli/app.hpp>

int main(int argc, char** argv) { return headcount::cli::headcount_main(argc, argv); }
