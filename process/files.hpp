// Files that rngvet writes into folders others may write to as well (a shared campaign folder, the
// folder of a store): never opened through a name that someone else could have planted there;
// and whole writes to a file descriptor (a file, a worker's pipe).
#pragma once

#include <string>
#include <sys/types.h>

namespace rngvet {

// All of `content` into `fd`, through short writes and interrupted ones: 0, or the errno of the
// failure.
int write_all(int fd, const std::string& content);

// Writes `content` to a new temporary file beside `path` (mkstemp: a fresh name, created
// exclusively, so no planted file or link is opened), flushes it to disk, gives it `mode` and
// renames it over `path`, which replaces a link at `path` rather than writing to its target. A
// failed or killed write leaves the previous file as it was. Throws std::runtime_error naming
// `path` and the system's reason; the temporary file is removed on failure.
void replace_file(const std::string& path, const std::string& content, mode_t mode = 0644);

// open(2) of `path` with `flags` plus O_NOFOLLOW and O_CLOEXEC (mode 0644 when it creates the
// file) that accepts only a regular file with a single link: -1 with errno ELOOP for a symbolic
// link, EPERM for a hard link to another name or a file that is not regular.
int open_own_file(const std::string& path, int flags);

} // namespace rngvet
