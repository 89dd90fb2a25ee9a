// The program headcount-serve: `headcount serve ...` runs it (see cli/app.hpp), so that only serve loads the HTTP
// library and the one-shot commands start without it.
#include <serve/serve_command.hpp>

int main(int argc, char** argv) { return headcount::serve::serve_main(argc, argv); }
