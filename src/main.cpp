#include <cli/app.hpp>

int main(int argc, char** argv) { return headcount::cli::headcount_main(argc, argv); }
