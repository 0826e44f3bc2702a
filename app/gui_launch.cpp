// SPDX-License-Identifier: MIT
#include "gui_launch.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

namespace rankscope {

namespace {

// The folder of this executable: /proc/self/exe, else argv[0] as given.
std::string ownFolder(const char* argv0)
{
    std::string self;
    char buf[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n > 0)
        self.assign(buf, static_cast<std::size_t>(n));
    else if (argv0)
        self = argv0;
    const std::size_t slash = self.rfind('/');
    return slash == std::string::npos ? std::string(".") : self.substr(0, slash);
}

} // namespace

int execGui(char** argv)
{
    const std::string gui = ownFolder(argv[0]) + "/rankscope-gui";
    ::execv(gui.c_str(), argv); // the same arguments; argv[0] stays what the user typed
    std::fprintf(stderr, "rankscope: cannot start the window (%s): %s\n", gui.c_str(), std::strerror(errno));
    return 127;
}

} // namespace rankscope
