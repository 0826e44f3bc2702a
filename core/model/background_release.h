// SPDX-License-Identifier: MIT
// Frees what a computation no longer needs on another core while the caller goes on. After a 1 GB scan,
// freeing the per-file scan data and the compiled signature patterns takes milliseconds on the one core
// that then builds the diagnosis; handed here, that work overlaps the diagnosis instead.
#pragma once

#include <future>
#include <utility>
#include <vector>

namespace rankscope {

class BackgroundRelease
{
public:
    BackgroundRelease() = default;
    BackgroundRelease(const BackgroundRelease&) = delete;
    BackgroundRelease& operator=(const BackgroundRelease&) = delete;
    ~BackgroundRelease() = default; // each future waits for its value to be freed

    // Takes `value` and destroys it on a thread of its own.
    template <typename T> void release(T&& value)
    {
        // Moved out of the lambda first: the lambda itself may be destroyed on the waiting thread.
        m_jobs.push_back(std::async(std::launch::async, [kept = std::forward<T>(value)]() mutable {
            T gone = std::move(kept);
            (void)gone;
        }));
    }

private:
    std::vector<std::future<void>> m_jobs;
};

} // namespace rankscope
