#include <util/secret.hpp>

#include <util/text.hpp>

#include <fmt/format.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

namespace headcount {

namespace {

constexpr std::size_t k_max_secret_file_bytes = 4096;

std::unexpected<Error> secret_error(const std::filesystem::path& path, std::string message) {
    return std::unexpected(Error{path.string(), 0, 0, std::move(message)});
}

/// Closes a descriptor on every path out.
struct FileDescriptor {
    int fd;
    ~FileDescriptor() {
        if (fd >= 0)
            ::close(fd);
    }
};

/// 32 bytes from getrandom(2), as 64 lower-case hex digits and a newline.
Result<std::string> fresh_secret_text(const std::filesystem::path& path) {
    std::array<unsigned char, k_min_secret_bytes> bytes{};
    std::size_t got = 0;
    while (got < bytes.size()) {
        const ssize_t n = ::getrandom(bytes.data() + got, bytes.size() - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return secret_error(
                path, fmt::format("cannot get random bytes for a new token secret: {}", std::strerror(errno)));
        got += static_cast<std::size_t>(n);
    }
    std::string text;
    for (const unsigned char byte : bytes)
        text += fmt::format("{:02x}", byte);
    return text + "\n";
}

/// Makes the secret file; false (and no error) when another command made it first.
Result<bool> create_secret_file(const std::filesystem::path& path) {
    std::error_code ec;
    const std::filesystem::path folder = path.parent_path();
    if (!folder.empty() && !std::filesystem::exists(folder, ec)) {
        std::filesystem::create_directories(folder, ec);
        if (ec)
            return secret_error(folder, "cannot create the folder for the token secret: " + ec.message());
        std::filesystem::permissions(folder, std::filesystem::perms::owner_all, ec);
    }
    auto text = fresh_secret_text(path);
    if (!text)
        return std::unexpected(text.error());
    // Written whole under a name of its own, then linked to the secret's name, which fails if another command made
    // it first: a secret is never seen half-written, and racing commands agree on the winner's.
    std::filesystem::path temporary = path;
    temporary += fmt::format(".new-{}", ::getpid());
    ::unlink(temporary.c_str());
    {
        FileDescriptor file{::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600)};
        if (file.fd < 0)
            return secret_error(path, fmt::format("cannot create the token secret: {}", std::strerror(errno)));
        // The umask may have taken bits away, never added them; fchmod makes 0600 exact.
        ::fchmod(file.fd, 0600);
        if (::write(file.fd, text->data(), text->size()) != static_cast<ssize_t>(text->size()) ||
            ::fsync(file.fd) != 0) {
            const int error = errno;
            ::unlink(temporary.c_str());
            return secret_error(path, fmt::format("cannot write the token secret: {}", std::strerror(error)));
        }
    }
    const int linked = ::link(temporary.c_str(), path.c_str());
    const int error = errno;
    ::unlink(temporary.c_str());
    if (linked == 0)
        return true;
    if (error == EEXIST)
        return false;
    return secret_error(path, fmt::format("cannot create the token secret: {}", std::strerror(error)));
}

} // namespace

Result<std::filesystem::path> default_secret_path() {
    for (const char* variable : {"XDG_CONFIG_HOME", "HOME"}) {
        const char* value = std::getenv(variable);
        if (value == nullptr || value[0] != '/')
            continue;
        std::filesystem::path base(value);
        if (std::string_view(variable) == "HOME")
            base /= ".config";
        return base / "headcount" / "token-secret";
    }
    return fail("neither XDG_CONFIG_HOME nor HOME is set to a folder: give the token secret's file with --secret");
}

Result<LoadedSecret> load_token_secret(const std::filesystem::path& path, bool create) {
    SecretSource source = SecretSource::read;
    FileDescriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)};
    if (file.fd < 0 && errno == ENOENT && create) {
        auto made = create_secret_file(path);
        if (!made)
            return std::unexpected(made.error());
        source = *made ? SecretSource::created : SecretSource::read;
        file.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    }
    if (file.fd < 0) {
        if (errno == ENOENT)
            return secret_error(path, "there is no token secret here: run generate --serve-url or serve with a "
                                      "roster to have one made, or give the file with --secret");
        if (errno == ELOOP)
            return secret_error(path, "the token secret is a symbolic link: give the file itself");
        return secret_error(path, fmt::format("cannot read the token secret: {}", std::strerror(errno)));
    }
    struct stat info {};
    if (::fstat(file.fd, &info) != 0 || !S_ISREG(info.st_mode))
        return secret_error(path, "the token secret must be a regular file");
    if (info.st_uid != ::geteuid())
        return secret_error(path, "the token secret belongs to another user: use a file of your own");
    if ((info.st_mode & 077) != 0)
        return secret_error(path, fmt::format("the token secret can be read or changed by other users (mode {:04o}): "
                                              "make it private with chmod 600",
                                              info.st_mode & 07777));
    if (static_cast<std::uint64_t>(info.st_size) > k_max_secret_file_bytes)
        return secret_error(path, fmt::format("the token secret file is larger than {} bytes: is this the right "
                                              "file?",
                                              with_thousands(k_max_secret_file_bytes)));
    std::string key(static_cast<std::size_t>(info.st_size), '\0');
    std::size_t got = 0;
    while (got < key.size()) {
        const ssize_t n = ::read(file.fd, key.data() + got, key.size() - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return secret_error(path, fmt::format("cannot read the token secret: {}", std::strerror(errno)));
        if (n == 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    key.resize(got);
    // One line break ends the file (LF or CR LF, as editors and `openssl rand -hex 32 > FILE` write it); every other
    // byte is the key.
    if (key.ends_with("\r\n"))
        key.resize(key.size() - 2);
    else if (key.ends_with('\n'))
        key.pop_back();
    const std::size_t length = key.size();
    auto secret = TokenSecret::from(key);
    // Overwrite the copy read; the TokenSecret holds its own.
    std::fill(key.begin(), key.end(), '\0');
    if (!secret)
        return secret_error(path, fmt::format("the token secret is {} byte{}; it must be at least {} (delete the file "
                                              "to have a new one made, which changes every student's link)",
                                              length, length == 1 ? "" : "s", k_min_secret_bytes));
    return LoadedSecret{std::move(*secret), source};
}

} // namespace headcount
