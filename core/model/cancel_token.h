// SPDX-License-Identifier: MIT
// Long work in core takes a CancelToken and a progress callback; views run it off the UI thread.
#pragma once

#include <QtGlobal>
#include <atomic>
#include <functional>

namespace rankscope {

class CancelToken
{
public:
    void cancel() { m_cancelled.store(true, std::memory_order_relaxed); }
    bool isCancelled() const { return m_cancelled.load(std::memory_order_relaxed); }

private:
    std::atomic<bool> m_cancelled { false };
};

// Called from worker threads with bytes done and bytes total; must be thread-safe.
using ProgressFn = std::function<void(qint64 done, qint64 total)>;

} // namespace rankscope
