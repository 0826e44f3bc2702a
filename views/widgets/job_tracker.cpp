// SPDX-License-Identifier: MIT
#include "job_tracker.h"

namespace rankscope {

JobTracker::~JobTracker()
{
    drop();
}

std::shared_ptr<CancelToken> JobTracker::begin(QObject* context)
{
    if (m_state->token)
        m_state->token->cancel(); // the previous job stops; its result is stale from here on
    ++m_state->generation;
    m_state->token = std::make_shared<CancelToken>();
    m_state->context = context;
    m_state->running = true;
    return m_state->token;
}

std::shared_ptr<JobTracker::State> JobTracker::latest(const Weak& state, quint64 generation)
{
    // Runs on the UI thread, the only one that touches the state: no locking.
    std::shared_ptr<State> s = state.lock();
    return s && s->generation == generation ? s : nullptr;
}

void JobTracker::cancel()
{
    if (m_state->token)
        m_state->token->cancel();
}

void JobTracker::drop()
{
    cancel();
    ++m_state->generation;
    m_state->context.clear();
    m_state->running = false;
}

bool JobTracker::isCancelled() const
{
    return m_state->token && m_state->token->isCancelled();
}

void JobTracker::waitForFinished()
{
    m_future.waitForFinished();
}

} // namespace rankscope
