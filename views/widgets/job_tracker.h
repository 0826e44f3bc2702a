// SPDX-License-Identifier: MIT
// One kind of background job of a view, in the spirit of hotspot's JobTracker. startJob() runs the work
// on the global thread pool and cancels and supersedes the tracker's previous job; the result is handed to
// onDone on the UI thread only if its job is still the latest and the context object it was started for
// still lives. A stale result never lands: no generation or token bookkeeping at the call sites.
// The tracker and the context live on the UI thread; only the work runs elsewhere.
#pragma once

#include "cancel_token.h"

#include <QCoreApplication>
#include <QFuture>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace rankscope {

class JobTracker
{
public:
    JobTracker() = default;
    JobTracker(const JobTracker&) = delete;
    JobTracker& operator=(const JobTracker&) = delete;
    ~JobTracker(); // drops the job under way: its token is cancelled and its result never lands

    // Runs work(const CancelToken&) off the UI thread, then onDone(result) on the UI thread.
    template <typename Work, typename Done> void startJob(QObject* context, Work work, Done onDone)
    {
        using Result = std::invoke_result_t<Work&, const CancelToken&>;
        static_assert(!std::is_void_v<Result>, "the work returns what onDone receives");
        run<Result>(
            context,
            [work = std::move(work)](
                const CancelToken& token, const ProgressFn&) mutable { return work(token); },
            std::move(onDone), nullptr);
    }
    // The same for work(const CancelToken&, const ProgressFn&): onProgress(done, total) runs on the UI
    // thread for the reports of the latest job while it runs.
    template <typename Work, typename Done, typename Progress>
    void startJob(QObject* context, Work work, Done onDone, Progress onProgress)
    {
        using Result = std::invoke_result_t<Work&, const CancelToken&, const ProgressFn&>;
        static_assert(!std::is_void_v<Result>, "the work returns what onDone receives");
        run<Result>(
            context, std::move(work), std::move(onDone), std::function<void(qint64, qint64)>(onProgress));
    }

    void cancel(); // the latest job stops early; its (partial) result still lands, isCancelled() says so
    void drop(); // cancels too, and nothing under way lands any more
    bool isRunning() const { return m_state->running; } // from startJob until its result lands or is dropped
    bool isCancelled() const; // the latest job was cancelled (also inside its onDone)
    quint64 generation() const { return m_state->generation; } // counts the jobs started and dropped
    void waitForFinished(); // blocks until the latest job's work has returned (not until it lands)

private:
    // What the posted deliveries check, on the UI thread only: they hold it weakly, so a tracker that
    // is gone delivers nothing.
    struct State
    {
        quint64 generation = 0;
        std::shared_ptr<CancelToken> token;
        QPointer<QObject> context;
        bool running = false;
    };
    using Weak = std::weak_ptr<State>;

    std::shared_ptr<CancelToken> begin(QObject* context); // supersedes the previous job
    // The tracker's state while `generation` is its latest job; null once superseded, dropped or gone.
    static std::shared_ptr<State> latest(const Weak& state, quint64 generation);
    template <typename F> static void postToUiThread(F&& f)
    {
        if (QCoreApplication* app = QCoreApplication::instance())
            QMetaObject::invokeMethod(app, std::forward<F>(f), Qt::QueuedConnection);
    }

    template <typename Result, typename Work, typename Done>
    void run(QObject* context, Work work, Done onDone, std::function<void(qint64, qint64)> onProgress)
    {
        std::shared_ptr<CancelToken> token = begin(context);
        const Weak state = m_state;
        const quint64 generation = m_state->generation;
        ProgressFn progress;
        if (onProgress)
            progress = [state, generation, onProgress = std::move(onProgress)](qint64 done, qint64 total) {
                postToUiThread([state, generation, onProgress, done, total] {
                    if (const auto s = latest(state, generation); s && s->running && s->context)
                        onProgress(done, total);
                });
            };
        m_future = QtConcurrent::run([state, generation, token, progress, work = std::move(work),
                                         onDone = std::move(onDone)]() mutable {
            auto result = std::make_shared<Result>(work(*token, progress));
            postToUiThread(
                [state, generation, result = std::move(result), onDone = std::move(onDone)]() mutable {
                    const std::shared_ptr<State> s = latest(state, generation);
                    if (s)
                        s->running = false;
                    // Stale, or nobody to hand it to: a big result is freed on the pool, not here.
                    if (!s || !s->context)
                        (void)QtConcurrent::run([gone = std::move(result)] { (void)gone; });
                    else
                        onDone(std::move(*result));
                });
        });
    }

    std::shared_ptr<State> m_state = std::make_shared<State>();
    QFuture<void> m_future;
};

} // namespace rankscope
