// Entry point of the `hetflow` command; the subcommands live in the app library.
int main() { return 0; }
